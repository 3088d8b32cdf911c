// subnet_lease on a real lab host running etcd 3.4: concurrent allocation in etcd transactions, re-runs
// without change, --check, release, a refused config change, a TTL lease; `hostwire subnets -i` reading
// the same etcd through the host (in process, see test/cli/run-subnets.ts); and the file store through the module.
import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { runModule } from '../../src/engine/runner/run-module.js';
import { labInventory, readState } from '../../src/lab/index.js';
import { runSubnets } from '../cli/run-subnets.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const P = '/hwtest/network';
let host: LabHost;
let dir: string;

test.before(async () => {
  host = await labHost(LAB);
  dir = await mkdtemp(join(tmpdir(), 'hw-tsdn-'));
  await host.sh('systemctl start etcd && for i in $(seq 50); do ETCDCTL_API=3 etcdctl endpoint health >/dev/null 2>&1 && exit 0; sleep 0.2; done; exit 1');
});

test.after.always(async () => {
  await host?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const lease = (args: Record<string, unknown>, o: { check?: boolean; vars?: Record<string, unknown> } = {}) =>
  runModule('subnet_lease', { network: '10.1.0.0/16', subnet_len: 24, store: 'etcd', prefix: P, ...args }, { transport: host.transport, ...o });
const etcdKeys = async () => (await host.sh(`ETCDCTL_API=3 etcdctl get --prefix --keys-only ${P}/`)).split('\n').filter(Boolean).sort();

test.serial('etcd: three nodes at once get three subnets; re-runs change nothing; --check writes nothing', async (t) => {
  const nodes = [['n1', '192.0.2.11'], ['n2', '192.0.2.12'], ['n3', '192.0.2.13']];
  const first = await Promise.all(nodes.map(([node, ip]) => lease({ node, public_ip: ip })));
  t.true(first.every((r) => r.changed));
  const subnets = first.map((r) => r.subnet as string);
  t.is(new Set(subnets).size, 3, `distinct: ${subnets.join(' ')}`);
  t.deepEqual([...subnets].sort(), ['10.1.1.0/24', '10.1.2.0/24', '10.1.3.0/24']);
  t.deepEqual(await etcdKeys(), [`${P}/config`, `${P}/subnets/10.1.1.0-24`, `${P}/subnets/10.1.2.0-24`, `${P}/subnets/10.1.3.0-24`]);
  t.deepEqual(JSON.parse(await host.sh(`ETCDCTL_API=3 etcdctl get --print-value-only ${P}/config`)), { Network: '10.1.0.0/16', SubnetLen: 24, Backend: { Type: 'host-gw' } });
  const again = await Promise.all(nodes.map(([node, ip]) => lease({ node, public_ip: ip })));
  t.deepEqual(again.map((r) => [r.changed, r.subnet]), subnets.map((s) => [false, s]));
  t.is((again[0].leases as unknown[]).length, 3);
  const check = await lease({ node: 'n4', public_ip: '192.0.2.14' }, { check: true });
  t.like(check, { changed: true, subnet: '10.1.4.0/24' });
  t.is((await etcdKeys()).length, 4, '--check left etcd alone');
});

test.serial('etcd: a different network is refused; absent releases the lease', async (t) => {
  await t.throwsAsync(lease({ network: '10.2.0.0/16', node: 'n1', public_ip: '192.0.2.11' }), { message: /refusing to change the network config .*Network is 10\.1\.0\.0\/16, the task asks for 10\.2\.0\.0\/16/ });
  await t.throwsAsync(lease({ subnet_len: 25, node: 'n1', public_ip: '192.0.2.11' }), { message: /SubnetLen is 24, the task asks for 25/ });
  const gone = await lease({ node: 'n2', public_ip: '192.0.2.12', state: 'absent' });
  t.like(gone, { changed: true });
  t.false((await etcdKeys()).includes(`${P}/subnets/${String(gone.subnet).replace('/', '-')}`));
  t.like(await lease({ node: 'n2', public_ip: '192.0.2.12', state: 'absent' }), { changed: false, subnet: null });
});

test.serial('etcd: a TTL lease is attached to an etcd lease', async (t) => {
  const r = await lease({ node: 'n5', public_ip: '192.0.2.15', ttl: 600 });
  t.true(r.changed);
  const key = r.lease_key as string;
  const json = await host.sh(`ETCDCTL_API=3 etcdctl -w json get ${key}`);
  const id = BigInt(/"lease":(\d+)/.exec(json)![1]).toString(16);
  t.regex(await host.sh(`ETCDCTL_API=3 etcdctl lease timetolive ${id}`), /remaining\(\d+s\)/);
  await lease({ node: 'n5', public_ip: '192.0.2.15', state: 'absent' });
});

test.serial('hostwire subnets -i reads etcd through the etcd host: has, would get, stale', async (t) => {
  const st = (await readState(LAB))!;
  const inv = labInventory(st) as { all: { hosts: Record<string, Record<string, unknown>>; children?: Record<string, unknown> } };
  const labName = Object.keys(inv.all.hosts)[0];
  inv.all.hosts.n1 = { subnet_public_ip: '192.0.2.11' };
  inv.all.hosts.n6 = { subnet_public_ip: '192.0.2.16' };
  Object.assign(inv.all, { vars: { pod_network_cidr: '10.1.0.0/16', pod_subnet_len: 24, subnet_store: 'etcd', etcd_prefix: P } });
  inv.all.children = { ...(inv.all.children ?? {}), etcd: { hosts: { [labName]: {} } }, nodes: { hosts: { n1: {}, n6: {} } } };
  const path = join(dir, 'inv.yml');
  await writeFile(path, stringify(inv));
  const out = await runSubnets(['-i', path, '--hosts', 'nodes', '--json']);
  t.is(out.code, 0, out.err);
  const plan = JSON.parse(out.out);
  const n1 = (await lease({ node: 'n1', public_ip: '192.0.2.11' })).subnet as string;
  const n3 = (await lease({ node: 'n3', public_ip: '192.0.2.13' })).subnet as string;
  const lowestFree = ['10.1.1.0/24', '10.1.2.0/24', '10.1.3.0/24'].find((s) => s !== n1 && s !== n3);
  t.deepEqual(plan.nodes, [
    { node: 'n1', public_ip: '192.0.2.11', subnet: n1, status: 'has' },
    { node: 'n6', public_ip: '192.0.2.16', subnet: lowestFree, status: 'would get' },
  ]);
  t.deepEqual(plan.stale.map((l: { public_ip: string; subnet: string }) => [l.public_ip, l.subnet]), [['192.0.2.13', n3]], 'n3 is not in the inventory: stale');
  const text = { stdout: (await runSubnets(['-i', path, '--hosts', 'nodes'])).out };
  t.regex(text.stdout, new RegExp(`n6\\s+192\\.0\\.2\\.16\\s+${lowestFree!.replace(/\./g, '\\.')}\\s+would get`));
  t.regex(text.stdout, /-\s+192\.0\.2\.13\s+10\.1\.\d+\.0\/24\s+stale \(no inventory host has this PublicIP\)/);
});

test.serial('file store through the module: the default path beside the inventory', async (t) => {
  const vars = { inventory_dir: dir };
  const runs = await Promise.all(['a', 'b', 'c'].map((node) => lease({ store: 'file', node }, { vars })));
  t.is(new Set(runs.map((r) => r.subnet)).size, 3);
  const doc = JSON.parse(await readFile(join(dir, '.hostwire', 'subnets.json'), 'utf8'));
  t.deepEqual(doc.leases.map((l: { node: string }) => l.node).sort(), ['a', 'b', 'c']);
  t.like(await lease({ store: 'file', node: 'a' }, { vars }), { changed: false, subnet: runs[0].subnet });
});
