// subnet_lease under --check when etcd does not answer (recorded on lab host h8a-2 with etcd stopped on
// h8a-1): a real run fails; check mode reports drift, takes this node's subnet from flannel's subnet.env
// and says the leases are unknown - and sends nothing but reads.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { subnetLeaseModule, type SubnetLeaseArgs } from '../../src/modules/subnet_lease/subnet_lease.js';
import { parseSubnetEnv } from '../../src/modules/subnet_lease/unreachable.js';
import { resolvePool } from '../../src/sdn/pool.js';
import type { ModuleContext } from '../../src/modules/types.js';
import type { Probe } from '../../src/probe/types.js';
import type { ExecOptions, ExecResult, Transport } from '../../src/transports/transport.js';

interface Case { command: string; rc: number; stdout: string }
const rec = (name: string): Case => JSON.parse(readFileSync(new URL(`../../../src/modules/subnet_lease/cases/${name}.json`, import.meta.url), 'utf8')) as Case;
const pool = resolvePool({ network: '10.244.0.0/16', subnetLen: 24 });

/** A host whose etcd is stopped: etcdctl answers as recorded; probes answer from recorded files. */
function stoppedEtcdHost(files: Record<string, string>) {
  const sent: string[] = [];
  const transport = {
    name: 'h8a-2', stats: { execs: 0, bytesSent: 0, connects: 0 },
    connect: async () => undefined, close: async () => undefined, writeFile: async () => { throw new Error('check mode must not write'); },
    async exec(command: string, _o?: ExecOptions): Promise<ExecResult> {
      sent.push(command);
      if (!command.includes('etcdctl')) throw new Error(`unexpected command ${command}`);
      return { stdout: rec('get-etcd-stopped').stdout, stderr: '', code: 0 };
    },
  } as unknown as Transport;
  const probe = async <S>(p: Probe<S>): Promise<S> => {
    const file = Object.keys(files).find((f) => p.command.includes(f));
    if (!file) throw new Error(`unexpected probe ${p.command}`);
    return p.parse({ stdout: rec(files[file]).stdout, rc: 0 });
  };
  const ctx = (check: boolean): ModuleContext => ({
    host: 'h8a-2', transport, check, diff: true, vars: { inventory_hostname: 'h8a-2' }, baseDir: '/', render: (s) => s, probe, deferred: new Map(),
  });
  return { sent, ctx };
}

const args = (extra: Record<string, unknown> = {}) => subnetLeaseModule.args.parse({
  network: '10.244.0.0/16', subnet_len: 24, store: 'etcd', etcd_endpoints: 'http://10.115.24.11:2379', public_ip: '10.115.24.12', ...extra,
}) as SubnetLeaseArgs;

test('subnet.env: FLANNEL_SUBNET gives the node subnet only when it is a subnet of the network', (t) => {
  const text = rec('subnet-file').stdout.replace(/^::present\n/, '');
  t.deepEqual(parseSubnetEnv(text, '/run/flannel/subnet.env', pool), { subnet: '10.244.1.0/24' });
  t.deepEqual(parseSubnetEnv(undefined, '/f', pool), { why: '/f does not exist' });
  t.regex(parseSubnetEnv('FLANNEL_SUBNET=10.9.1.1/24\n', '/f', pool).why!, /is not a \/24 of 10\.244\.0\.0\/16/);
  t.regex(parseSubnetEnv('FLANNEL_SUBNET=10.244.1.1/25\n', '/f', pool).why!, /is not a \/24/);
  t.regex(parseSubnetEnv('FLANNEL_SUBNET=$(reboot)/24\n', '/f', pool).why!, /no FLANNEL_SUBNET=address\/prefix line/);
  t.regex(parseSubnetEnv('FLANNEL_SUBNET=10.244.1.999/24\n', '/f', pool).why!, /not an address\/prefix/);
});

test('a real run fails naming etcd; --check reports drift with the subnet from subnet.env, leases unknown', async (t) => {
  const host = stoppedEtcdHost({ '/run/flannel/subnet.env': 'subnet-file' });
  await t.throwsAsync(subnetLeaseModule.run!(args({ subnet_file: '/run/flannel/subnet.env' }), host.ctx(false)), {
    message: 'etcdctl get failed: etcd at http://10.115.24.11:2379 is not reachable from h8a-2',
  });
  const r = await subnetLeaseModule.run!(args({ subnet_file: '/run/flannel/subnet.env' }), host.ctx(true));
  t.like(r, { changed: true, subnet: '10.244.1.0/24', leases: [], leases_known: false, public_ip: '10.115.24.12' });
  t.is(r.msg, "etcd at http://10.115.24.11:2379 is not reachable from h8a-2 (check mode): the leases cannot be read; this node's subnet is 10.244.1.0/24 (from /run/flannel/subnet.env)");
  t.deepEqual(r.diff, [{ header: 'subnet leases (etcd)', before: '(unknown: etcd is not reachable)\n', after: '10.244.1.0/24 10.115.24.12\n' }]);
  t.true(host.sent.every((c) => /etcdctl .* get --prefix/.test(c)), 'only reads were sent');
});

test('--check on a fresh node (no subnet.env) and a release: subnet unknown, still drift', async (t) => {
  const host = stoppedEtcdHost({ '/run/flannel/none.env': 'subnet-file-missing' });
  const fresh = await subnetLeaseModule.run!(args({ subnet_file: '/run/flannel/none.env' }), host.ctx(true));
  t.like(fresh, { changed: true, subnet: null, leases_known: false });
  t.regex(String(fresh.msg), /this node's subnet is not known \(\/run\/flannel\/none\.env does not exist\); tasks that need it are skipped$/);
  const release = await subnetLeaseModule.run!(args({ state: 'absent' }), host.ctx(true));
  t.like(release, { changed: true, subnet: null, leases_known: false });
  t.regex(String(release.msg), /whether h8a-2 holds a lease cannot be read; it is released once etcd answers/);
  t.false(subnetLeaseModule.args.safeParse({ network: '10.244.0.0/16', subnet_file: 'run/x' }).success, 'subnet_file must be absolute');
});
