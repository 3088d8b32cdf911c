// Confirmation before a disruptive change, for real: `hostwire run` on a terminal (a pseudo-terminal
// driven by test/init/pty-drive.py) against a lab host shows what will change and asks; "n" leaves the
// route in place and fails the task, "y" removes it; --yes never asks.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labInventoryYaml } from '../../src/lab/index.js';
import { drive as ptyDrive } from '../helpers/pty.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-confirm-'));
let host: LabHost;

test.before(async () => {
  host = await labHost(LAB);
  writeFileSync(path.join(dir, 'inv.yml'), labInventoryYaml(host.state));
  writeFileSync(path.join(dir, 'remove.yml'), `
- hosts: all
  gather_facts: false
  tasks:
    - name: Remove the stale route
      ip_route: { dst: 198.51.100.0/24, dev: eth0, state: absent }
`);
});
test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const drive = (args: string[], steps: [string, string][]) => ptyDrive(dir, args, steps);
const route = () => host.sh('ip route show 198.51.100.0/24');
const addRoute = () => host.sh('ip route replace 198.51.100.0/24 dev eth0');

test.serial('on a terminal the run shows the change and asks; "n" keeps the route, "y" removes it', async (t) => {
  await addRoute();
  t.regex(await route(), /198\.51\.100\.0\/24 dev eth0/);
  const no = await drive(['run', 'remove.yml', '-i', 'inv.yml'], [['Apply these changes on', 'n\r']]);
  t.is(no.failed_step, null, no.output);
  t.regex(no.output, /198\.51\.100\.0\/24/, 'the summary names the route');
  t.regex(no.output, /not confirmed by the user/);
  t.is(no.code, 2, no.output);
  t.regex(await route(), /198\.51\.100\.0\/24 dev eth0/, 'answering no changed nothing');
  const yes = await drive(['run', 'remove.yml', '-i', 'inv.yml'], [['Apply these changes on', 'y\r']]);
  t.is(yes.code, 0, yes.output);
  t.is((await route()).trim(), '', 'answering yes removed the route');
});

test.serial('--yes never asks', async (t) => {
  await addRoute();
  const r = await drive(['run', 'remove.yml', '-i', 'inv.yml', '--yes'], []);
  t.is(r.code, 0, r.output);
  t.notRegex(r.output, /Apply these changes/);
  t.is((await route()).trim(), '');
});
