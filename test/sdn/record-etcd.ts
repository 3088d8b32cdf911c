// Records real etcdctl output for the subnet_lease parser tests (src/modules/subnet_lease/cases/).
// Run on a lab host with etcd started: node dist/test/sdn/record-etcd.js <lab>   (not a test: ava skips it)
import { writeFileSync } from 'node:fs';
import { readState } from '../../src/lab/state.js';
import { createTransport } from '../../src/transports/index.js';
import { configKey, createIfAbsent, grantCommand, leaseKey, readCommand, txnCommand, txnInput, type EtcdConn } from '../../src/sdn/store/etcdctl.js';

const lab = process.argv[2] ?? 'sdndev';
const st = (await readState(lab))!;
const h = st.hosts[0];
const t = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: st.keyFile, knownHostsFile: st.knownHostsFile, netns: st.netns });
await t.connect();
const conn: EtcdConn = { endpoints: ['http://127.0.0.1:2379'] };
const P = '/hwrec/network';
const save = async (name: string, command: string, stdin?: string) => {
  const r = await t.exec(command, stdin === undefined ? {} : { stdin });
  const doc = { host: `lab host ${h.name} (Debian 12 nspawn, etcd 3.4.23)`, command, ...(stdin !== undefined ? { stdin } : {}), rc: r.code, stdout: r.stdout };
  writeFileSync(new URL(`../../../src/modules/subnet_lease/cases/${name}.json`, import.meta.url), `${JSON.stringify(doc, null, 1)}\n`);
  return r.stdout;
};
await t.exec(`ETCDCTL_API=3 etcdctl del --prefix ${P}/`);
await save('get-empty', readCommand(conn, P));
const cfg = JSON.stringify({ Network: '10.1.0.0/16', SubnetLen: 24, Backend: { Type: 'host-gw' } });
const k1 = leaseKey(P, '10.1.1.0-24');
await save('txn-succeeded', txnCommand(conn), txnInput([createIfAbsent(configKey(P)), createIfAbsent(k1)], [
  { put: { key: configKey(P), value: cfg } }, { put: { key: k1, value: JSON.stringify({ PublicIP: '192.0.2.11', BackendType: 'host-gw' }) } },
]));
await save('txn-failed', txnCommand(conn), txnInput([createIfAbsent(k1)], [{ put: { key: k1, value: JSON.stringify({ PublicIP: '192.0.2.99', BackendType: 'host-gw' }) } }]));
const grant = await save('grant', grantCommand(conn, 86400));
const id = /lease ([0-9a-f]+) granted/.exec(grant)![1];
const k2 = leaseKey(P, '10.1.2.0-24');
await t.exec(txnCommand(conn), { stdin: txnInput([createIfAbsent(k2)], [{ put: { key: k2, value: JSON.stringify({ PublicIP: '192.0.2.12', PublicIPv6: null, BackendType: 'host-gw' }), lease: id } }]) });
// A key flanneld would ignore (not a subnet) and a lease written by hand with an old backend.
await t.exec(`ETCDCTL_API=3 etcdctl put ${P}/subnets/garbage 'x' && ETCDCTL_API=3 etcdctl put ${leaseKey(P, '10.1.3.0-24')} '{"PublicIP":"192.0.2.13","BackendType":"vxlan","BackendData":{"VNI":1}}'`);
await save('get-leases', readCommand(conn, P));
await save('get-unreachable', readCommand({ endpoints: ['http://127.0.0.1:2399'] }, P));
await save('get-missing-etcdctl', `PATH=/nonexistent; ${readCommand(conn, P)}`);
await t.exec(`ETCDCTL_API=3 etcdctl del --prefix ${P}/; ETCDCTL_API=3 etcdctl lease revoke ${id}`);
await t.close();
console.log('recorded');
