import test from 'ava';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '../../src/sdn/store/file-store.js';
import { flannelConfig, resolvePool } from '../../src/sdn/pool.js';
import { runSubnets } from './run-subnets.js';

let dir: string;
test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hw-subnets-cli-'));
});
test.after.always(async () => {
  await rm(dir, { recursive: true, force: true });
});

test.serial('the allocation order, text and JSON', async (t) => {
  const r = await runSubnets(['--network', '10.1.0.0/16', '--hostsubnetlength', '6', '--count', '3', '--style', 'openshift']);
  t.is(r.code, 0);
  t.is(r.out, 'network 10.1.0.0/16, /26 per node (hostsubnetlength 6), style openshift: 1024 subnets\n1  10.1.0.0/26\n2  10.1.1.0/26\n3  10.1.2.0/26\n');
  const j = JSON.parse((await runSubnets(['--network', '10.1.0.0/28', '--subnet-len', '30', '--count', '5', '--json'])).out);
  t.deepEqual(j, { network: '10.1.0.0/28', subnet_len: 30, hostsubnetlength: 2, style: 'flannel', total: 3, order: ['10.1.0.4/30', '10.1.0.8/30', '10.1.0.12/30'] });
  const v6 = await runSubnets(['--network', 'fd00:10::/48', '--count', '2']);
  t.regex(v6.out, /\/64 per node .*\n1 {2}fd00:10:0:1::\/64\n2 {2}fd00:10:0:2::\/64\n$/);
});

test.serial('bad input names the flag and the expected form (exit 5)', async (t) => {
  t.like(await runSubnets(['--network', '10.1.2.3/16']), { code: 5, err: "ERROR! --network: '10.1.2.3/16' has host bits set; expected a network address like 10.1.0.0/16\n" });
  t.like(await runSubnets(['--network', '10.1.0.0/16', '--hostsubnetlength', '20', '--style', 'openshift']), { code: 5 });
  t.regex((await runSubnets(['--network', '10.1.0.0/16', '--hostsubnetlength', '20', '--style', 'openshift'])).err, /--hostsubnetlength: a \/12 subnet \(hostsubnetlength 20\) does not fit into 10\.1\.0\.0\/16; expected \/16 to \/31 \(hostsubnetlength 1 to 16\)/);
  t.regex((await runSubnets([])).err, /give --network CIDR .* or -i INVENTORY/);
});

test.serial('-i with the state file beside the inventory: has, would get, stale', async (t) => {
  const inv = join(dir, 'cluster', 'hosts.yml');
  await mkdir(join(dir, 'cluster'), { recursive: true });
  await writeFile(inv, [
    'all:',
    '  vars: { pod_network_cidr: 10.20.0.0/16, pod_subnet_len: 24 }',
    '  children:',
    '    nodes:',
    '      hosts:',
    '        node1: { ansible_host: 192.0.2.11 }',
    '        node2: { ansible_host: 192.0.2.12 }',
    '        node3: { ansible_host: 192.0.2.13 }',
  ].join('\n'));
  const pool = resolvePool({ network: '10.20.0.0/16', subnetLen: 24 });
  const store = new FileStore(join(dir, 'cluster', '.hostwire', 'subnets.json'));
  for (const node of ['old', 'node2']) await store.allocate({ pool, config: flannelConfig(pool, 'host-gw'), backendType: 'host-gw', node });
  const r = await runSubnets(['-i', inv, '--hosts', 'nodes']);
  t.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  t.is(lines[0], 'network 10.20.0.0/16, /24 per node (hostsubnetlength 8), style flannel, subnets 10.20.1.0 .. 10.20.255.0: 255 subnets');
  t.regex(lines[1], /^store: state file .*cluster\/\.hostwire\/subnets\.json$/);
  t.deepEqual(lines.slice(2, 7).map((l) => l.split(/\s{2,}/)), [
    ['NODE', 'PUBLIC IP', 'SUBNET', 'STATUS'],
    ['node1', '192.0.2.11', '10.20.3.0/24', 'would get'],
    ['node2', '192.0.2.12', '10.20.2.0/24', 'has'],
    ['node3', '192.0.2.13', '10.20.4.0/24', 'would get'],
    ['old', '-', '10.20.1.0/24', 'stale (no such host in the inventory)'],
  ]);
  const j = JSON.parse((await runSubnets(['-i', inv, '--hosts', 'nodes', '--json'])).out);
  t.like(j, { network: '10.20.0.0/16', subnet_len: 24, style: 'flannel', config_stored: true });
  const bad = await runSubnets(['-i', inv, '--hosts', 'nodes', '--network', '10.30.0.0/16']);
  t.is(bad.code, 5);
  t.regex(bad.err, /refusing to change the network config in state file .*Network is 10\.20\.0\.0\/16, the task asks for 10\.30\.0\.0\/16/);
});
