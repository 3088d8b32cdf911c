// --check --detailed-exitcode of playbooks/site.yml on a flannel host-gw cluster whose etcd is not
// running (its own lab per run, 2 hosts, etcd on the first): on fresh hosts, and on a converged cluster with etcd
// stopped as drift plus a drifted CNI MTU (in the CNI config on node 1, on the cni0 bridge on node 2).
// Check mode reports etcd as a service to start, goes on through the other roles, reports the MTU drift,
// exits 3 and changes nothing on the hosts; a real run repairs it all and the next check exits 0.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { labDown, labInventory, labUp, type LabState } from '../../src/lab/index.js';
import { createTransport } from '../../src/transports/index.js';
import type { Transport } from '../../src/transports/transport.js';
import { repoRoot } from './sdn-agent-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const cli = path.join(repoRoot, 'dist/src/cli/main.js');
const dir = mkdtempSync(path.join(tmpdir(), 'hw-h8chk-'));
const inventory = path.join(dir, 'cluster.yml');
let state: LabState | undefined;
const hosts: Transport[] = [];
let names: string[] = [];

const site = (...extra: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [cli, 'run', 'playbooks/site.yml', '-i', inventory, '--no-live', ...extra], { cwd: repoRoot, maxBuffer: 16 << 20, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr });
    });
  });
const check = () => site('--check', '--diff', '--detailed-exitcode');
const sh = async (i: number, cmd: string) => (await hosts[i].exec(cmd)).stdout.trim();
/** Lines `changed: [host]` right under `TASK [title]`, as `host: title`. */
const changedTasks = (out: string) =>
  [...out.matchAll(/^(?:TASK|RUNNING HANDLER) \[(.+?)\] \*+\n((?:(?!\n\n)[\s\S])*)/gm)].flatMap((m) => [...m[2].matchAll(/^changed: \[([^\]]+)\]/gm)].map((c) => `${c[1]}: ${m[1]}`));

/** Everything a run could touch that matters here, plus every file written since `mark` (logs aside: the
 * hosts' own services write them; /run and /tmp themselves change with the run lock and the mark; /var/tmp
 * changes when systemd makes and removes a D-Bus-activated service's PrivateTmp there - seen once in CI). */
const snapshot = (i: number) =>
  sh(i, `systemctl is-active etcd; ip -d link show cni0 2>&1 | head -1; ip route; iptables-save | grep -v '^#'; cat /etc/cni/net.d/* /run/flannel/subnet.env 2>&1
    find / -xdev \\( -path /proc -o -path /sys -o -path /dev -o -path /var/log -o -path /var/tmp \\) -prune -o -newer /tmp/h8-mark ! -path /run ! -path /tmp -print 2>/dev/null | sort`);
const mark = () => Promise.all(hosts.map((h) => h.exec('touch -d "-1 second" /tmp/h8-mark')));

test.before(async () => {
  await labDown(LAB).catch(() => undefined);
  state = (await labUp({ name: LAB, hosts: 2 })).state;
  names = state.hosts.map((h) => h.name);
  for (const h of state.hosts) {
    const t = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: state.keyFile, knownHostsFile: state.knownHostsFile, netns: state.netns });
    await t.connect();
    hosts.push(t);
  }
  const all = (labInventory(state) as { all: { hosts: Record<string, unknown> } }).all.hosts;
  writeFileSync(inventory, stringify({
    all: {
      hosts: all,
      children: {
        etcd: { hosts: { [names[0]]: {} } },
        masters: { hosts: { [names[0]]: {} } },
        nodes: { hosts: { [names[0]]: {}, [names[1]]: {} }, vars: { sdn: 'flannel-hostgw', cluster_network: '10.244.0.0/16' } },
      },
    },
  }, { lineWidth: 0 }));
});

test.after.always(async () => {
  await Promise.all(hosts.map((h) => h.close().catch(() => undefined)));
  await labDown(LAB).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

test.serial('fresh hosts, etcd never started: --check reports the drift it can, exits 3, writes nothing', async (t) => {
  t.timeout(150_000);
  await mark();
  const before = await Promise.all([snapshot(0), snapshot(1)]);
  t.is(before[0].split('\n')[0], 'inactive', 'etcd is not running on the fresh etcd host');
  const r = await check();
  t.is(r.code, 3, r.out);
  t.notRegex(r.out, /fatal:|FAILED!/);
  const changed = changedTasks(r.out);
  t.true(changed.includes(`${names[0]}: etcd : etcd enabled and running`), changed.join('\n'));
  t.true(changed.includes(`${names[0]}: flannel_hostgw : flannel network config in etcd`), changed.join('\n'));
  for (const n of names) t.true(changed.includes(`${n}: flannel_hostgw : This node's lease`), changed.join('\n'));
  // The roles after the lease still ran: the forwarding rules are reported on both nodes.
  for (const n of names) t.true(changed.includes(`${n}: flannel_hostgw : Forward traffic from the pods`), changed.join('\n'));
  t.regex(r.out, /this node's subnet is not known \(\/run\/flannel\/subnet\.env does not exist\)/);
  t.regex(r.out, /TASK \[sdn_agent : The SDN agent is one this role knows\]/);
  t.deepEqual(await Promise.all([snapshot(0), snapshot(1)]), before, '--check changed nothing on either host');
});

test.serial('converged cluster, etcd stopped and a CNI MTU drifted: --check names both, exits 3, changes nothing', async (t) => {
  t.timeout(200_000);
  const converge = await site();
  t.is(converge.code, 0, converge.out);
  const clean = await check();
  t.is(clean.code, 0, clean.out);
  await sh(0, `systemctl stop etcd; sed -i 's/"mtu": 1500/"mtu": 1400/' /etc/cni/net.d/10-hostwire.conf`);
  await sh(1, 'ip link set dev cni0 mtu 1400');
  t.is(await sh(0, 'systemctl is-active etcd; grep -c \'"mtu": 1400\' /etc/cni/net.d/10-hostwire.conf'), 'inactive\n1');
  await mark();
  const before = await Promise.all([snapshot(0), snapshot(1)]);
  const r = await check();
  t.is(r.code, 3, r.out);
  t.notRegex(r.out, /fatal:|FAILED!/);
  const changed = changedTasks(r.out);
  t.true(changed.includes(`${names[0]}: etcd : etcd enabled and running`), changed.join('\n'));
  t.true(changed.includes(`${names[0]}: cni_config : CNI bridge network for this node's subnet`), changed.join('\n'));
  t.regex(r.out, /-\s+"mtu": 1400,\n\+\s+"mtu": 1500,/, 'the config file MTU diff');
  t.true(changed.includes(`${names[1]}: cni_config : The pod bridge`), changed.join('\n'));
  t.regex(r.out, /this node's subnet is 10\.244\.\d+\.0\/24 \(from \/run\/flannel\/subnet\.env\)/);
  t.regex(r.out, /the routes to the peers and their boot-time copy are not checked/);
  t.deepEqual(await Promise.all([snapshot(0), snapshot(1)]), before, '--check changed nothing on either host');
});

test.serial('a real run starts etcd and repairs the MTU; the next check exits 0', async (t) => {
  t.timeout(150_000);
  const fix = await site();
  t.is(fix.code, 0, fix.out);
  t.is(await sh(0, 'systemctl is-active etcd; grep -c \'"mtu": 1500\' /etc/cni/net.d/10-hostwire.conf'), 'active\n1');
  t.regex(await sh(1, 'ip link show cni0'), /mtu 1500 /);
  const again = await check();
  t.is(again.code, 0, again.out);
});
