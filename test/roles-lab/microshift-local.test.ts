// playbooks/microshift.yml with `-c local` ON a lab host, as a MicroShift user runs it on the node:
// the machine's node binary and the built repo are copied into the host's root, the run is started
// through `hostwire lab ssh`, and a second local run must report changed=0.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labDown, labUp } from '../../src/lab/index.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const cli = path.join(repo, 'dist/src/cli/main.js');
const INSIDE = '/opt/hostwire';
let hostName = '';

const hostwire = (...args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: repo, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr });
    });
  });
/** A command run on the lab host through `hostwire lab ssh`. */
const onHost = (cmd: string) => hostwire('lab', 'ssh', hostName, '--name', LAB, '--', cmd);
const localRun = (...extra: string[]) =>
  onHost(`cd ${INSIDE} && node dist/src/cli/main.js run playbooks/microshift.yml -c local -i localhost, --no-live -e configure_ovs_datapath_type=netdev ${extra.join(' ')}`);

test.before(async () => {
  await labDown(LAB).catch(() => undefined);
  const up = await labUp({ name: LAB, hosts: 1 });
  const h = up.state.hosts[0] as { name: string; merged?: string };
  hostName = h.name;
  const merged = h.merged ?? JSON.parse(readFileSync(`/var/lib/hostwire/labs/${LAB}/state.json`, 'utf8')).hosts[0].merged;
  // Only what a run needs: the compiled sources, runtime dependencies, roles and playbooks.
  const skip = new Set(['typescript', '@types', 'ava']);
  await mkdir(path.join(merged, INSIDE, 'dist'), { recursive: true });
  await cp(path.join(repo, 'dist/src'), path.join(merged, INSIDE, 'dist/src'), { recursive: true });
  await cp(path.join(repo, 'node_modules'), path.join(merged, INSIDE, 'node_modules'), { recursive: true, filter: (src) => !skip.has(path.relative(path.join(repo, 'node_modules'), src).split(path.sep)[0]) });
  for (const d of ['roles', 'playbooks', 'package.json']) await cp(path.join(repo, d), path.join(merged, INSIDE, d), { recursive: true });
  await cp(process.execPath, path.join(merged, 'usr/local/bin/node'));
});

test.after.always(async () => {
  await labDown(LAB).catch(() => undefined);
});

test.serial('microshift.yml runs with -c local on the node; a second local run changes nothing', async (t) => {
  const first = await localRun();
  t.is(first.code, 0, first.out);
  t.regex(first.out, /localhost\s+: ok=\d+\s+changed=[1-9]\d*\s+unreachable=0\s+failed=0/);
  const again = await localRun();
  t.is(again.code, 0, again.out);
  t.regex(again.out, /localhost\s+: ok=\d+\s+changed=0\s+unreachable=0\s+failed=0/);
  const check = await localRun('--check', '--detailed-exitcode');
  t.is(check.code, 0, check.out);
});

test.serial('the local run left the node prepared', async (t) => {
  const r = await onHost('cat /proc/sys/net/ipv4/ip_forward; firewall-cmd --permanent --zone trusted --list-sources; ovs-vsctl br-exists br-ex && echo br-ex; systemctl show -p CPUAffinity ovs-vswitchd; grep -c disableOVSInit /etc/microshift/ovn.yaml');
  t.is(r.code, 0, r.out);
  t.deepEqual(r.out.trim().split('\n'), ['1', '10.42.0.0/16 169.254.169.1', 'br-ex', 'CPUAffinity=0', '1']);
});
