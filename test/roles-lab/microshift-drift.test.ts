// Drift mode on a real lab host: playbooks/remediate.yml run as `hostwire run --check --diff
// --detailed-exitcode` exits 3 naming the drift (ip_forward off at runtime, a trusted source removed, a
// changed CPUAffinity drop-in) and changes nothing; a normal run fixes it; the next check exits 0.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { labInventory } from '../../src/lab/index.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const cli = path.join(repo, 'dist/src/cli/main.js');
const dir = mkdtempSync(path.join(tmpdir(), 'hw-msdrift-'));
const inventory = path.join(dir, 'inventory.yml');
let lab: LabHost | undefined;

const sh = async (cmd: string) => (await lab!.transport.exec(cmd)).stdout.trim();
const hostwire = (...args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: repo, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, out: stdout + stderr });
    });
  });
const remediate = (...extra: string[]) => hostwire('run', 'playbooks/remediate.yml', '-i', inventory, '--no-live', ...extra);
/** What --check must leave alone: the three drifted things, read raw. */
const snapshot = () => sh('cat /proc/sys/net/ipv4/ip_forward; firewall-cmd --zone trusted --list-sources; firewall-cmd --permanent --zone trusted --list-sources; cat /etc/systemd/system/ovs-vswitchd.service.d/microshift-cpuaffinity.conf; systemctl show -p CPUAffinity ovs-vswitchd');

test.before(async () => {
  lab = await labHost(LAB);
  const inv = labInventory(lab.state) as { all: { vars?: Record<string, unknown> } };
  inv.all.vars = { ...inv.all.vars, configure_ovs_datapath_type: 'netdev' };
  writeFileSync(inventory, stringify(inv, { lineWidth: 0 }));
});

test.after.always(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

test.serial('converged host: the drift check exits 0', async (t) => {
  const first = await remediate();
  t.is(first.code, 0, first.out);
  const check = await remediate('--check', '--diff', '--detailed-exitcode');
  t.is(check.code, 0, check.out);
  t.regex(check.out, /changed=0/);
});

test.serial('drift: --check --diff --detailed-exitcode exits 3, names each drift and changes nothing', async (t) => {
  await sh(`echo 0 > /proc/sys/net/ipv4/ip_forward
    firewall-cmd --zone trusted --remove-source 169.254.169.1
    printf '[Service]\\nCPUAffinity=1\\n' > /etc/systemd/system/ovs-vswitchd.service.d/microshift-cpuaffinity.conf
    systemctl daemon-reload`);
  const before = await snapshot();
  const check = await remediate('--check', '--diff', '--detailed-exitcode');
  t.is(check.code, 3, check.out);
  t.regex(check.out, /-net\.ipv4\.ip_forward = 0\n\+net\.ipv4\.ip_forward = 1/);
  t.regex(check.out, /add source 169\.254\.169\.1 to zone trusted \(runtime\)/);
  t.notRegex(check.out, /add source 169\.254\.169\.1 to zone trusted \(permanent\)/, 'the permanent side did not drift');
  t.regex(check.out, /-CPUAffinity=1\n\+CPUAffinity=0/);
  t.regex(check.out, /RUNNING HANDLER \[openvswitch_tuning : restart ovs-vswitchd\]/);
  t.is(await snapshot(), before, '--check changed nothing');
});

test.serial('a normal run fixes the drift; the next check exits 0', async (t) => {
  const fix = await remediate();
  t.is(fix.code, 0, fix.out);
  t.regex(fix.out, /changed=[1-9]/);
  t.is(await sh('cat /proc/sys/net/ipv4/ip_forward'), '1');
  t.is(await sh('firewall-cmd --zone trusted --list-sources'), '10.42.0.0/16 169.254.169.1');
  t.is(await sh('systemctl show -p CPUAffinity,NeedDaemonReload ovs-vswitchd; grep Cpus_allowed_list /proc/$(pidof ovs-vswitchd)/status'), 'CPUAffinity=0\nNeedDaemonReload=no\nCpus_allowed_list:\t0');
  const check = await remediate('--check', '--diff', '--detailed-exitcode');
  t.is(check.code, 0, check.out);
});
