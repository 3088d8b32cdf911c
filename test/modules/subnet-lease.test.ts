// subnet_lease from recorded etcdctl output (src/modules/subnet_lease/cases, recorded on a lab host with
// etcd 3.4.23 by test/sdn/record-etcd.ts): the parsers, and the etcd store driven by a transport that
// replays those outputs, so the commands and the transaction text are checked too.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseEtcdState, parseGrant, parseTxnJson, readSection, txnInput, createIfAbsent, configKey, leaseKey } from '../../src/sdn/store/etcdctl.js';
import { EtcdStore } from '../../src/sdn/store/etcd-store.js';
import { flannelConfig, resolvePool } from '../../src/sdn/pool.js';
import { subnetLeaseModule } from '../../src/modules/subnet_lease/subnet_lease.js';
import type { ExecOptions, ExecResult, Transport } from '../../src/transports/transport.js';

interface Case { command: string; stdin?: string; rc: number; stdout: string }
const rec = (name: string): Case => JSON.parse(readFileSync(new URL(`../../../src/modules/subnet_lease/cases/${name}.json`, import.meta.url), 'utf8')) as Case;
const P = '/hwrec/network';
const conn = { endpoints: ['http://127.0.0.1:2379'] };

test('get --prefix: config, leases (TTL lease id kept exactly), keys flannel would ignore', (t) => {
  const st = parseEtcdState(readSection(rec('get-leases').stdout, 'get', conn).out, P);
  t.is(st.revision, 9);
  t.deepEqual(st.config?.value, { Network: '10.1.0.0/16', SubnetLen: 24, Backend: { Type: 'host-gw' } });
  t.is(st.config?.modRevision, 6);
  t.deepEqual(st.leases, [
    { subnet: '10.1.1.0/24', key: `${P}/subnets/10.1.1.0-24`, modRevision: 6, public_ip: '192.0.2.11', backend_type: 'host-gw' },
    { subnet: '10.1.2.0/24', key: `${P}/subnets/10.1.2.0-24`, modRevision: 7, public_ip: '192.0.2.12', backend_type: 'host-gw', etcd_lease: '694da2040610d118' },
    { subnet: '10.1.3.0/24', key: `${P}/subnets/10.1.3.0-24`, modRevision: 9, public_ip: '192.0.2.13', backend_type: 'vxlan' },
  ]);
  t.deepEqual(st.ignored, [`${P}/subnets/garbage`]);
  t.deepEqual(parseEtcdState(readSection(rec('get-empty').stdout, 'get', conn).out, P), { revision: 5, leases: [], ignored: [] });
});

test('txn results, lease grant, and the txn text etcdctl accepted', (t) => {
  t.true(parseTxnJson(readSection(rec('txn-succeeded').stdout, 'txn', conn).out));
  t.false(parseTxnJson(readSection(rec('txn-failed').stdout, 'txn', conn).out), 'etcd omits succeeded when the compares fail');
  t.is(parseGrant(readSection(rec('grant').stdout, 'lease grant', conn).out), '694da2040610d118');
  const k = leaseKey(P, '10.1.1.0-24');
  const cfg = JSON.stringify({ Network: '10.1.0.0/16', SubnetLen: 24, Backend: { Type: 'host-gw' } });
  t.is(txnInput([createIfAbsent(configKey(P)), createIfAbsent(k)], [{ put: { key: configKey(P), value: cfg } }, { put: { key: k, value: '{"PublicIP":"192.0.2.11","BackendType":"host-gw"}' } }]), rec('txn-succeeded').stdin!);
});

test('missing etcdctl and unreachable etcd are clear failures', (t) => {
  t.throws(() => readSection(rec('get-missing-etcdctl').stdout, 'get', conn, 'node1'), { message: /etcdctl not found on node1: install the package etcd-client/ });
  t.throws(() => readSection(rec('get-unreachable').stdout, 'get', { endpoints: ['http://127.0.0.1:2399'] }, 'node1'), { message: 'etcdctl get failed: etcd at http://127.0.0.1:2399 is not reachable from node1' });
});

/** A transport that answers etcdctl commands with recorded outputs, in order, and keeps what it was sent. */
function replay(answers: string[]): Transport & { sent: { command: string; stdin?: string }[] } {
  const sent: { command: string; stdin?: string }[] = [];
  return {
    name: 'node1', sent, stats: { execs: 0, bytesSent: 0, connects: 0 },
    connect: async () => undefined, close: async () => undefined, writeFile: async () => undefined,
    async exec(command: string, o?: ExecOptions): Promise<ExecResult> {
      sent.push({ command, ...(o?.stdin !== undefined ? { stdin: String(o.stdin) } : {}) });
      const name = answers.shift();
      if (!name) throw new Error(`unexpected command ${command}`);
      return { stdout: rec(name).stdout, stderr: '', code: 0 };
    },
  };
}

const pool = resolvePool({ network: '10.1.0.0/16', subnetLen: 24 });
const req = (publicIp: string, extra = {}) => ({ pool, config: flannelConfig(pool, 'host-gw'), backendType: 'host-gw', node: 'n', publicIp, ...extra });

test('etcd store: a new node gets the lowest free subnet in a create-only txn; a lost race reads again', async (t) => {
  const tr = replay(['get-leases', 'txn-failed', 'get-leases', 'txn-succeeded']);
  const r = await new EtcdStore(tr, conn, P).allocate(req('192.0.2.20'));
  t.like(r, { changed: true, action: 'allocated', lease: { subnet: '10.1.4.0/24', key: `${P}/subnets/10.1.4.0-24`, public_ip: '192.0.2.20' } });
  t.deepEqual(r.leases.map((l) => l.subnet), ['10.1.1.0/24', '10.1.2.0/24', '10.1.3.0/24', '10.1.4.0/24']);
  t.is(tr.sent.length, 4, 'read, txn (lost), read, txn');
  t.is(tr.sent[1].stdin, `mod("${P}/config") = "6"\nver("${P}/subnets/10.1.4.0-24") = "0"\n\nput "${P}/subnets/10.1.4.0-24" "{\\"PublicIP\\":\\"192.0.2.20\\",\\"BackendType\\":\\"host-gw\\"}"\n\n\n`);
  t.regex(tr.sent[0].command, /etcdctl --endpoints=http:\/\/127\.0\.0\.1:2379 .*-w json get --prefix \/hwrec\/network\//);
});

test('etcd store: a known PublicIP keeps its lease (no write); an outdated BackendType is updated keeping the etcd lease', async (t) => {
  const kept = replay(['get-leases']);
  t.like(await new EtcdStore(kept, conn, P).allocate(req('192.0.2.12')), { changed: false, action: 'reused', lease: { subnet: '10.1.2.0/24', etcd_lease: '694da2040610d118' } });
  const upd = replay(['get-leases', 'txn-succeeded']);
  t.like(await new EtcdStore(upd, conn, P).allocate(req('192.0.2.13')), { changed: true, action: 'updated', lease: { subnet: '10.1.3.0/24', backend_type: 'host-gw' } });
  t.regex(upd.sent[1].stdin!, /mod\("\/hwrec\/network\/subnets\/10\.1\.3\.0-24"\) = "9"\n\nput --ignore-lease "\/hwrec\/network\/subnets\/10\.1\.3\.0-24"/);
  const check = replay(['get-leases']);
  t.like(await new EtcdStore(check, conn, P).allocate(req('192.0.2.21', { check: true })), { changed: true, lease: { subnet: '10.1.4.0/24' } });
  t.is(check.sent.length, 1, '--check only reads');
});

test('etcd store: a TTL lease is granted first; a stored config with another network is refused', async (t) => {
  const tr = replay(['get-empty', 'grant', 'txn-succeeded']);
  const r = await new EtcdStore(tr, conn, P).allocate(req('192.0.2.11', { ttl: 86400 }));
  t.like(r, { configCreated: true, lease: { subnet: '10.1.1.0/24', etcd_lease: '694da2040610d118' } });
  t.regex(tr.sent[2].stdin!, /^ver\("\/hwrec\/network\/config"\) = "0"\nver\("\/hwrec\/network\/subnets\/10\.1\.1\.0-24"\) = "0"\n\nput "\/hwrec\/network\/config" .*\nput --lease=694da2040610d118 "\/hwrec/);
  const other = resolvePool({ network: '10.2.0.0/16', subnetLen: 24 });
  await t.throwsAsync(new EtcdStore(replay(['get-leases']), conn, P).allocate({ ...req('192.0.2.30'), pool: other, config: flannelConfig(other, 'host-gw') }), {
    message: /refusing to change the network config in etcd http:\/\/127\.0\.0\.1:2379 under \/hwrec\/network \(via node1\): Network is 10\.1\.0\.0\/16, the task asks for 10\.2\.0\.0\/16/,
  });
});

test('etcd store: release deletes the lease guarded by its mod revision', async (t) => {
  const tr = replay(['get-leases', 'txn-succeeded']);
  const r = await new EtcdStore(tr, conn, P).release({ node: 'n', publicIp: '192.0.2.11' });
  t.like(r, { changed: true, released: [{ subnet: '10.1.1.0/24' }] });
  t.is(tr.sent[1].stdin, `mod("${P}/subnets/10.1.1.0-24") = "6"\n\ndel "${P}/subnets/10.1.1.0-24"\n\n\n`);
  t.like(await new EtcdStore(replay(['get-leases']), conn, P).release({ node: 'n', publicIp: '192.0.2.99' }), { changed: false, released: [] });
});

test('module args: validated before anything runs', (t) => {
  const bad = (a: Record<string, unknown>) => subnetLeaseModule.args.safeParse(a).success;
  t.true(bad({ network: '10.1.0.0/16', subnet_len: '24', etcd_endpoints: 'http://a:2379,http://b:2379' }));
  t.false(bad({ network: '10.1.0.0/16', bogus: 1 }), 'unknown args fail');
  t.false(bad({ network: '10.1.0.0/16', store: 'consul' }));
  t.false(bad({ network: '10.1.0.0/16', etcd_cert: '/c' }), 'cert without key');
  t.false(bad({ network: '10.1.0.0/16', prefix: 'coreos.com' }));
  const parsed = subnetLeaseModule.args.parse({ network: '10.1.0.0/16', subnet_len: '24', etcd_endpoints: 'http://a:2379, http://b:2379' });
  t.like(parsed, { subnet_len: 24, etcd_endpoints: ['http://a:2379', 'http://b:2379'], store: 'file', style: 'flannel', prefix: '/coreos.com/network', backend_type: 'host-gw', ttl: 0, state: 'present' });
});

test('the module with the file store: result shape for register:, --check, absent, idempotence', async (t) => {
  const { mkdtemp, rm, readFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { runModule } = await import('../../src/engine/runner/run-module.js');
  const dir = await mkdtemp(join(tmpdir(), 'hw-lease-'));
  try {
    const tr = replay([]);
    const vars = { inventory_hostname: 'node1', inventory_dir: dir, ansible_default_ipv4: { address: '192.0.2.11' } };
    const args = { network: '10.244.0.0/16' };
    const checked = await runModule('subnet_lease', args, { transport: tr, vars, check: true });
    t.like(checked, { changed: true, subnet: '10.244.1.0/24' });
    await t.throwsAsync(readFile(join(dir, '.hostwire', 'subnets.json')), { code: 'ENOENT' }, '--check wrote nothing');
    const r = await runModule('subnet_lease', args, { transport: tr, vars, diff: true });
    t.deepEqual(
      { subnet: r.subnet, network: r.network, subnet_len: r.subnet_len, public_ip: r.public_ip, node: r.node, leases: r.leases, config: r.config },
      { subnet: '10.244.1.0/24', network: '10.244.0.0/16', subnet_len: 24, public_ip: '192.0.2.11', node: 'node1',
        leases: [{ subnet: '10.244.1.0/24', public_ip: '192.0.2.11', backend_type: 'host-gw', node: 'node1' }], config: { Network: '10.244.0.0/16', SubnetLen: 24, Backend: { Type: 'host-gw' } } },
    );
    t.deepEqual(r.diff, [{ header: 'subnet leases (file)', before: '', after: '10.244.1.0/24 node1 192.0.2.11\n' }]);
    t.like(await runModule('subnet_lease', args, { transport: tr, vars }), { changed: false, subnet: '10.244.1.0/24' });
    t.like(await runModule('subnet_lease', { ...args, state: 'absent' }, { transport: tr, vars, check: true }), { changed: true, subnet: '10.244.1.0/24' });
    t.like(await runModule('subnet_lease', { ...args, state: 'absent' }, { transport: tr, vars }), { changed: true, leases: [] });
    t.like(await runModule('subnet_lease', { ...args, state: 'absent' }, { transport: tr, vars }), { changed: false, subnet: null });
    await t.throwsAsync(runModule('subnet_lease', { ...args, store: 'file' }, { transport: tr, vars: { inventory_hostname: 'x' } }), { message: /state_file: required with store: file when the run has no inventory_dir/ });
    await t.throwsAsync(runModule('subnet_lease', { network: '10.244.0.0/16', public_ip: 'nope' }, { transport: tr, vars }), { message: /public_ip: expected an IPv4 address/ });
    await t.throwsAsync(runModule('subnet_lease', { network: '10.244.0.0/16', colour: 'red' }, { transport: tr, vars }), { message: /colour/ });
    t.is(tr.sent.length, 0, 'the file store never touches the host');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
