// ovs_gateway from outputs recorded on lab hosts: the probe parser, MCO's uplink choice, the pure
// plans (no_uplink, uplink static/DHCP, already moved, extra bridge) and the NM backend's nmcli commands.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { chooseUplink } from '../../src/modules/ovs_gateway/choose-uplink.js';
import { parseEnvText } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { machineMac, planNoUplink } from '../../src/modules/ovs_gateway/plan-no-uplink.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { HINT_FILES } from '../../src/modules/ovs_gateway/probe.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const probe = (n: string) => parseGatewayProbe(caseText(`${n}.txt`));
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', ...o });
const txns = (s: GatewayState, o: Record<string, unknown> = {}) => planUplink(s, args(o)).filter(isTxnChange) as TxnChange[];
const opts = { bridge: 'br-ex', extraBridge: 'br-ex1' };
const withFiles = (s: GatewayState, files: Record<string, string>): GatewayState => ({ ...s, files: { ...s.files, ...files } });

test('probe of a fresh static host: eth0 with its address, default route, NM sees it externally, no OVS bridge', (t) => {
  const s = probe('probe-static-fresh');
  t.regex(s.machineId, /^[0-9a-f]{32}$/);
  t.deepEqual(s.bridges, []);
  const eth0 = s.links.find((l) => l.name === 'eth0')!;
  t.is(eth0.mtu, 1500);
  t.deepEqual(eth0.addrs.filter((a) => a.scope === 'global').map((a) => [a.local, a.dynamic]), [['10.138.160.12', false]]);
  t.deepEqual(s.routes.filter((r) => r.dst === 'default').map((r) => [r.dev, r.gateway]), [['eth0', '10.138.160.1']]);
  t.true(s.nm.running);
  t.false(s.nm.ovsPlugin);
  t.is(s.nm.devices.find((d) => d.device === 'eth0')!.state, 'connected (externally)');
  t.false(s.bootUnitEnabled);
  t.is(s.scriptSha, '');
});

test('probe of a moved host: br-ex (netdev) with port eth0, saved env/prev, nft ingress drop, boot unit enabled', (t) => {
  const s = probe('probe-static-moved');
  const br = s.bridges.find((b) => b.name === 'br-ex')!;
  t.is(br.datapathType, 'netdev');
  t.deepEqual(br.ports, ['eth0']);
  t.is(s.ovsIfTypes['eth0'], '');
  t.is(s.ovsIfTypes['br-ex'], 'internal');
  t.true(s.nftTables.includes('hostwire_eth0'));
  t.true(s.bootUnitEnabled);
  t.regex(s.scriptSha, /^[0-9a-f]{64}$/);
  t.is(parseEnvText(s.files['/etc/hostwire/configure-ovs/br-ex.env']!).METHOD, 'static');
  t.is(s.files[HINT_FILES.ifaceHint]!.trim(), 'eth0');
});

test('uplink choice follows MCO: default route, then br-ex port, hint, node IP, default_bridge, extra_bridge excluded', (t) => {
  const fresh = probe('probe-static-fresh');
  t.deepEqual(chooseUplink(fresh, opts), { iface: 'eth0', reason: 'default route' });
  t.is(chooseUplink(probe('probe-static-moved'), opts).iface, 'eth0');
  t.regex(chooseUplink(probe('probe-static-moved'), opts).reason, /default route on br-ex/);
  t.is(chooseUplink(fresh, { ...opts, forced: 'eth9' }).iface, 'eth9');
  t.is(chooseUplink(fresh, { ...opts, nodeIp: '10.138.160.12' }).reason, 'node IP 10.138.160.12');
  // default_bridge wins when it names an existing device; a missing one is ignored.
  t.is(chooseUplink(withFiles(fresh, { [HINT_FILES.defaultBridge]: 'lo\n' }), opts).reason, HINT_FILES.defaultBridge);
  t.is(chooseUplink(withFiles(fresh, { [HINT_FILES.defaultBridge]: 'nope\n' }), opts).iface, 'eth0');
  // An invalid hint (no such device, or no default route on it) does not win.
  t.is(chooseUplink(withFiles(fresh, { [HINT_FILES.ifaceHint]: 'lo\n' }), opts).iface, 'eth0');
  // The extra_bridge NIC is never br-ex's uplink.
  t.regex(chooseUplink(withFiles(fresh, { [HINT_FILES.extraBridge]: 'eth0\n' }), opts).reason, /no default route/);
});

test('static uplink plan: one transaction moving eth0 with its MAC, MTU, address and metric-48 default route', (t) => {
  const s = probe('probe-static-fresh');
  const all = planUplink(s, args());
  t.deepEqual(all.filter((c) => !isTxnChange(c)).map((c) => c.summary.split(' ')[0]), ['install', 'install', 'enable', 'record']);
  const [m] = txns(s);
  t.is(m!.txn.verb, 'apply');
  const env = parseEnvText(m!.txn.env!);
  t.like(env, { BRIDGE: 'br-ex', UPLINK: 'eth0', MAC: '96:66:6e:19:f6:32', MTU: '1500', METHOD: 'static', ADDRS: '10.138.160.12/24', ROUTES: 'default via 10.138.160.1 metric 48', DATAPATH: 'netdev', DROP_INGRESS: '1', CHECK: '10.138.160.1', BACKEND: 'ovs' });
  t.like(parseEnvText(m!.txn.prev!), { IFACE: 'eth0', ADDRS: '10.138.160.12/24', ROUTES: 'default via 10.138.160.1', NMCONN: '' });
  // A wrong gateway (the rollback drill) goes into the route and the check.
  t.like(parseEnvText(txns(s, { gateway: '10.138.160.99' })[0]!.txn.env!), { ROUTES: 'default via 10.138.160.99 metric 48', CHECK: '10.138.160.99' });
  t.like(parseEnvText(txns(s, { datapath_type: 'system' })[0]!.txn.env!), { DATAPATH: 'system', DROP_INGRESS: '0' });
});

test('DHCP uplink plan: method dhcp, no static address or DHCP route copied, the NM profile is kept for restore', (t) => {
  const s = probe('probe-dhcp-fresh');
  const [m] = txns(s);
  t.like(parseEnvText(m!.txn.env!), { METHOD: 'dhcp', ADDRS: '', ROUTES: '', CHECK: '10.138.160.1', MAC: '96:66:6e:19:f6:32' });
  const prev = parseEnvText(m!.txn.prev!);
  t.is(prev.METHOD, 'dhcp');
  t.regex(prev.NMCONN!, /^[0-9a-f-]{36}$/);
});

test('a moved host needs no transaction; a drift (address gone from br-ex) re-applies without a new prev', (t) => {
  const s = probe('probe-static-moved');
  t.deepEqual(txns(s), []);
  const drifted: GatewayState = { ...s, links: s.links.map((l) => (l.name === 'br-ex' ? { ...l, addrs: [] } : l)) };
  const [m] = txns(drifted);
  t.regex(m!.summary, /^re-apply eth0 into br-ex \(10\.138\.160\.11\/24 missing on br-ex/);
  t.is(m!.txn.prev, undefined);
});

test('extra_bridge: its NIC becomes br-ex1 (metric 49); when the file goes, br-ex1 is removed', (t) => {
  const s = probe('probe-static-fresh');
  const eth1 = { name: 'eth1', mac: '02:00:00:00:00:01', mtu: 1500, up: true, addrs: [{ family: 'inet' as const, local: '192.168.77.1', prefixlen: 24, scope: 'global', dynamic: false }] };
  const withNic = withFiles({ ...s, links: [...s.links, eth1] }, { [HINT_FILES.extraBridge]: 'eth1\n' });
  const [, extra] = txns(withNic);
  t.like(parseEnvText(extra!.txn.env!), { BRIDGE: 'br-ex1', UPLINK: 'eth1', ADDRS: '192.168.77.1/24', METRIC: '49', CHECK: '' });
  const moved = probe('probe-static-moved');
  const gone = withFiles(moved, { '/etc/hostwire/configure-ovs/br-ex1.env': 'BRIDGE=br-ex1\n', '/var/lib/hostwire/configure-ovs/br-ex1.prev': 'IFACE=eth1\n' });
  t.deepEqual(txns(gone).map((c) => `${c.txn.verb}:${c.txn.bridge}`), ['remove:br-ex1']);
});

test('no_uplink: br-ex with bridge-id, standalone, a machine-id MAC; nothing to do once it matches', (t) => {
  const s = probe('probe-static-fresh');
  const mac = machineMac(s.machineId, 'br-ex');
  t.regex(mac, /^02(:[0-9a-f]{2}){5}$/);
  t.is(machineMac(s.machineId, 'br-ex'), mac);
  const a = ovsGatewayArgs.parse({ mode: 'no_uplink', datapath_type: 'netdev' });
  const [create, nm] = planNoUplink(s, a);
  t.is(create!.run[0], `ovs-vsctl --timeout=10 --may-exist add-br br-ex -- set bridge br-ex datapath_type=netdev fail_mode=standalone 'other_config:hwaddr="${mac}"' 'external_ids:bridge-id="br-ex"'`);
  t.regex(nm!.run[0]!, /nmcli device set br-ex managed no/);
  const done: GatewayState = {
    ...s,
    bridges: [{ name: 'br-ex', datapathType: 'netdev', failMode: 'standalone', otherConfig: { hwaddr: mac }, externalIds: { 'bridge-id': 'br-ex' }, ports: [] }],
    nm: { ...s.nm, devices: [...s.nm.devices, { device: 'br-ex', type: 'tun', state: 'unmanaged', conUuid: '' }] },
  };
  t.deepEqual(planNoUplink(done, a), []);
  t.regex(planNoUplink(done, { ...a, datapath_type: 'system' })[0]!.summary, /update OVS bridge br-ex: datapath_type=system/);
});

test('bad arguments fail before anything runs', (t) => {
  t.false(ovsGatewayArgs.safeParse({ mode: 'uplink', bogus: 1 }).success);
  t.false(ovsGatewayArgs.safeParse({ mode: 'sideways' }).success);
  t.false(ovsGatewayArgs.safeParse({ mode: 'uplink', uplink: 'a name that is far too long' }).success);
  t.throws(() => planUplink({ ...probe('probe-static-fresh'), ovsError: 'database connection failed' }, args()), { message: /Open vSwitch is not running/ });
});
