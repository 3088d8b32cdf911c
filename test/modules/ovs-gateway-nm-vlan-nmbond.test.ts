// The nm backend with a VLAN on a bond NetworkManager holds under its own profile (an installer's bond, ports
// and VLAN profiles; test/vm/nm-vlan-nmbond-uplink.test.ts): MCO's shape - ovs-if-phys0 a vlan profile naming
// the bond as its parent, the bond and its ports left under their own profiles (no ovs-parent-<bond>, nothing
// deleted), a VLAN NM holds taken over by the activation; a lease on such a VLAN moves (ovs-if-br-ex's DHCP),
// on a kernel-made bond too (nm-vlan-kbond-dhcp-uplink.test.ts); NM's SLAAC and DHCPv6 (active-backup or LACP)
// on such a VLAN move (ovs-if-br-ex's token / the VLAN's DUID and IAID), on a kernel-made bond too (NM makes it
// again under ovs-parent-<bond>; nm-vlan-kbond-ipv6-auto-uplink.test.ts).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev, renderPrev } from '../../src/modules/ovs_gateway/env.js';
import { nmUuid } from '../../src/modules/ovs_gateway/nm-profiles.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { prevPath } from '../../src/modules/ovs_gateway/uplink-config.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm', uplink: 'bond0.42', ...o });
const BOND_CONN = '11111111-2222-4333-8444-555555555555';
const VLAN_CONN = '66666666-7777-4888-9999-aaaaaaaaaaaa';

/**
 * probe-bond-fresh (bond0 = eth1+eth2 with bond0.42) with the addresses and routes on bond0.42, NM holding the
 * bond, its ports and (`vlanNm`) the VLAN under profiles of their own; `dhcp`: the VLAN's IPv4 a lease.
 */
function vlanOnNmBond(o: { vlanNm?: boolean; dhcp?: boolean } = {}): GatewayState {
  const s = parseGatewayProbe(caseText('probe-bond-fresh.txt'));
  const bond = s.links.find((l) => l.name === 'bond0')!;
  const vlan = s.links.find((l) => l.name === 'bond0.42')!;
  vlan.up = true;
  vlan.mac = bond.mac;
  vlan.addrs.push(...bond.addrs.filter((a) => a.scope === 'global' && (!o.dhcp || a.family === 'inet')).map((a) => ({ ...a, dynamic: Boolean(o.dhcp) })));
  bond.addrs = bond.addrs.filter((a) => a.scope !== 'global');
  s.routes = s.routes.filter((r) => !o.dhcp || r.family === 4);
  for (const r of s.routes) if (r.dev === 'bond0') Object.assign(r, { dev: 'bond0.42' }, o.dhcp && r.dst === 'default' ? { protocol: 'dhcp' } : {});
  const nm = (device: string, conUuid: string) => Object.assign(s.nm.devices.find((d) => d.device === device)!, { state: 'connected', conUuid });
  nm('bond0', BOND_CONN);
  nm('eth1', '0000000a-2222-4333-8444-555555555555');
  nm('eth2', '0000000b-2222-4333-8444-555555555555');
  if (o.vlanNm) nm('bond0.42', VLAN_CONN);
  return s;
}

const move = (s: GatewayState, o: Record<string, unknown> = {}) => (planUplink(s, args(o)).filter(isTxnChange) as TxnChange[])[0]!;
const upPart = (nm: string) => nm.slice(nm.indexOf('\nup)\n'), nm.indexOf('\n;;\n'));

test('NM\'s own bond stays as it is: the vlan profile under ovs-port-phys0 names it, no ovs-parent or port profile of ours', (t) => {
  const s = vlanOnNmBond({ vlanNm: true });
  const mac = s.links.find((l) => l.name === 'bond0')!.mac!;
  const m = move(s);
  t.regex(m.summary, /^move bond0\.42 into br-ex/);
  t.like(parseEnvText(m.txn.env!), { UPLINK: 'bond0.42', KIND: 'vlan', VLAN_PARENT: 'bond0', VLAN_PARENT_NM: BOND_CONN, BACKEND: 'nm' });
  const prev = parsePrev(m.txn.prev!)!;
  t.like(prev, { iface: 'bond0.42', nmConn: VLAN_CONN, device: { kind: 'vlan', id: 42, parent: 'bond0', parentNmConn: BOND_CONN } });
  t.is(prev.nmUnmanaged, undefined, 'NM managed every device before the move');
  t.is(renderPrev(prev), m.txn.prev!, 'prev round-trips');
  const nm = m.txn.nm!;
  t.regex(nm, new RegExp(`^nmcli connection add type vlan con-name ovs-if-phys0 connection\\.uuid ${nmUuid('ovs-if-phys0')} connection\\.interface-name bond0\\.42 connection\\.master ${nmUuid('ovs-port-phys0')} connection\\.slave-type ovs-port connection\\.autoconnect-priority 100 vlan\\.parent bond0 vlan\\.id 42 802-3-ethernet\\.mtu 1500 802-3-ethernet\\.cloned-mac-address ${mac} save no$`, 'm'));
  t.notRegex(nm, /ovs-parent|ovs-slave|type bond|managed yes|addr_gen_mode/, 'nothing of the bond\'s or its ports\' is touched');
  t.notRegex(upPart(nm), /ip link delete/, 'neither the bond nor NM\'s VLAN is deleted: ovs-if-phys0\'s activation takes the VLAN over');
  t.regex(nm, /^nmcli connection delete ovs-if-br-ex ovs-if-phys0 ovs-port-phys0 ovs-port-br-ex br-ex 2>\/dev\/null \|\| true$/m, 'down deletes MCO\'s five profiles only');
});

test('a kernel-made VLAN on NM\'s own bond: deleted first, NM makes it on the bond from ovs-if-phys0', (t) => {
  const up = upPart(move(vlanOnNmBond()).txn.nm!);
  t.regex(up, /^if \[ -e \/proc\/net\/vlan\/bond0\.42 \]; then ip link delete dev bond0\.42; fi$/m);
  t.notRegex(up, /ip link delete dev bond0;|ovs-parent/);
});

test('a lease on a VLAN on NM\'s own bond moves: ovs-if-br-ex takes it with the MAC as client id', (t) => {
  const m = move(vlanOnNmBond({ vlanNm: true, dhcp: true }));
  t.like(parseEnvText(m.txn.env!), { METHOD: 'dhcp', ADDRS: '', VLAN_PARENT_NM: BOND_CONN });
  t.regex(m.txn.nm!, /type ovs-interface con-name ovs-if-br-ex .* ipv4\.method auto ipv4\.dhcp-client-id mac ipv6\.method ignore ipv4\.may-fail no /);
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 42 /);
});

test('once moved (the saved prev read back): a lease on a VLAN on NM\'s bond is not refused again, and the profiles are the same', (t) => {
  const m = move(vlanOnNmBond({ vlanNm: true, dhcp: true }));
  const prev = parsePrev(m.txn.prev!)!;
  t.like(prev, { method: 'dhcp', device: { parentNmConn: BOND_CONN } });
  // The host after the move: br-ex holds the VLAN as its port, the saved prev and env on the host.
  const s = vlanOnNmBond({ vlanNm: true, dhcp: true });
  s.bridges.push({ name: 'br-ex', ports: ['bond0.42'], datapathType: 'system', failMode: 'standalone', otherConfig: {}, externalIds: {} });
  s.files[prevPath('br-ex')] = m.txn.prev!;
  const again = move(s);
  t.regex(again.summary, /^re-apply bond0\.42 into br-ex/);
  t.is(again.txn.nm, m.txn.nm, 'the same profiles from the saved prev');
});

test('NM\'s SLAAC and DHCPv6 on a VLAN on NM\'s own bond move (ovs-if-br-ex: the token / the DUID and IAID); on a kernel-made bond too, NM making the bond again under ovs-parent-bond0 (a lease there moves)', (t) => {
  const s = vlanOnNmBond({ dhcp: true });
  Object.assign(s.nm.devices.find((d) => d.device === 'bond0')!, { state: 'connected (externally)' });
  // A lease there moves now (test/vm/nm-vlan-kbond-dhcp-uplink.test.ts, through a power cycle).
  t.notThrows(() => planUplink(s, args()), 'a lease on a VLAN on a kernel-made bond');
  t.notThrows(() => planUplink(s, args({ backend: 'ovs' })), 'the ovs backend moves it');
  const slaac = () => {
    const v6 = vlanOnNmBond({ vlanNm: true });
    const vlan = v6.links.find((l) => l.name === 'bond0.42')!;
    vlan.addrs = vlan.addrs.map((a) => (a.family === 'inet6' ? { ...a, dynamic: true, mngtmpaddr: true } : a));
    v6.routes.push({ family: 6, dst: 'default', gateway: 'fe80::1', dev: 'bond0.42', protocol: 'ra', metric: 1024 });
    return v6;
  };
  const m = move(slaac());
  t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', TOKENS6: '::0:0:0:11', VLAN_PARENT_NM: BOND_CONN });
  t.regex(m.txn.nm!, /type ovs-interface con-name ovs-if-br-ex .* ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::0:0:0:11 /);
  t.notRegex(m.txn.nm!, /fd5c:8b::11/, 'the SLAAC address is made again, not set');
  const dhcp6 = slaac();
  dhcp6.nmDhcp6 = { 'bond0.42': { duid: '00:04:aa:bb', iaid: 7, addrs: [] } };
  dhcp6.links.find((l) => l.name === 'bond0.42')!.addrs.find((a) => a.family === 'inet6')!.prefixlen = 128;
  t.regex(move(dhcp6).txn.nm!, /con-name ovs-if-br-ex .* ipv6\.method auto ipv6\.dhcp-duid 00:04:aa:bb ipv6\.dhcp-iaid 00:00:00:07 /, 'DHCPv6 there: the VLAN\'s DUID and IAID');
  // On a kernel-made bond (NM shows it externally): the same ovs-if-br-ex, the bond made again under ovs-parent-bond0.
  const kernel = (s: GatewayState) => {
    Object.assign(s.nm.devices.find((d) => d.device === 'bond0')!, { state: 'connected (externally)' });
    const nm = move(s).txn.nm!;
    t.regex(nm, /^nmcli connection add type bond con-name ovs-parent-bond0 /m, 'NM makes the kernel\'s bond again under its own profile');
    t.regex(upPart(nm), /ip link delete dev bond0;/, 'the kernel\'s bond deleted first (unless NM runs it under ovs-parent-bond0 already)');
    return nm;
  };
  t.regex(kernel(dhcp6), /con-name ovs-if-br-ex .* ipv6\.method auto ipv6\.dhcp-duid 00:04:aa:bb ipv6\.dhcp-iaid 00:00:00:07 /, 'DHCPv6 on a VLAN on a kernel-made bond: the VLAN\'s DUID and IAID');
  t.regex(kernel(slaac()), /con-name ovs-if-br-ex .* ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::0:0:0:11 /, 'SLAAC on a VLAN on a kernel-made bond: the token');
});

test('an 802.1ad VLAN on NM\'s own bond moves (ovs-if-phys0 with vlan.protocol 802.1ad): static on active-backup or LACP, a lease on active-backup; a lease on LACP or IPv6 from RAs still refused', (t) => {
  const qinq = (o: { dhcp?: boolean; mode?: string } = {}) => {
    const s = vlanOnNmBond({ vlanNm: true, ...o });
    s.links.find((l) => l.name === 'bond0.42')!.info!.protocol = '802.1ad';
    if (o.mode) Object.assign(s.links.find((l) => l.name === 'bond0')!.info!, { mode: o.mode });
    return s;
  };
  for (const o of [{}, { dhcp: true }, { mode: '802.3ad' }]) {
    const m = move(qinq(o));
    t.like(parseEnvText(m.txn.env!), { KIND: 'vlan', VLAN_PROTO: '802.1ad', VLAN_PARENT: 'bond0', VLAN_PARENT_NM: BOND_CONN, METHOD: o.dhcp ? 'dhcp' : 'static' });
    t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .* vlan\.parent bond0 vlan\.id 42 vlan\.protocol 802\.1ad 802-3-ethernet\.mtu /);
  }
  const refused = (s: GatewayState, why: RegExp) => {
    t.throws(() => planUplink(s, args()), { message: why });
    t.notThrows(() => planUplink(s, args({ backend: 'ovs' })), 'the ovs backend moves it');
  };
  const tail = /; the nm backend moves 802\.1ad VLANs on a NIC; on a bond with a static address on an active-backup one \(NetworkManager's own or kernel-made\) and on an LACP \(802\.3ad\) one NetworkManager holds under its own profile, and with a DHCP lease on an active-backup one NetworkManager holds under its own profile, only so far - use backend: ovs/;
  refused(qinq({ dhcp: true, mode: '802.3ad' }), new RegExp(`the uplink bond0\\.42 is an 802\\.1ad \\(QinQ\\) VLAN on the 802\\.3ad bond bond0 with a DHCP lease${tail.source}`));
  const slaac = qinq();
  slaac.links.find((l) => l.name === 'bond0.42')!.addrs.push({ family: 'inet6', local: 'fd5c:8b::3efb:372d:93ab:0', prefixlen: 64, scope: 'global', dynamic: true });
  slaac.routes.push({ family: 6, dst: 'default', gateway: 'fe80::1', dev: 'bond0.42', protocol: 'ra', metric: 400 });
  refused(slaac, new RegExp(`the uplink bond0\\.42 is an 802\\.1ad \\(QinQ\\) VLAN on the active-backup bond bond0 with IPv6 from RAs${tail.source}`));
  const kernel = qinq({ dhcp: true });
  Object.assign(kernel.nm.devices.find((d) => d.device === 'bond0')!, { state: 'connected (externally)' });
  refused(kernel, new RegExp(`the uplink bond0\\.42 is an 802\\.1ad \\(QinQ\\) VLAN on the kernel-made active-backup bond bond0 with a DHCP lease${tail.source}`));
});

test('the bond under our own ovs-parent profile (a kernel-made bond the nm backend moved) is not taken for NM\'s own', (t) => {
  const s = vlanOnNmBond();
  Object.assign(s.nm.devices.find((d) => d.device === 'bond0')!, { conUuid: nmUuid('ovs-parent-bond0') });
  const m = move(s);
  t.notRegex(m.txn.prev!, /VLAN_PARENT_NM/);
  t.regex(m.txn.nm!, /con-name ovs-parent-bond0 /);
});

// Recorded on the VM host of test/vm/nm-vlan-nmbond-uplink.test.ts (HW_RECORD_DIR): bond0.100 with a lease, on
// NM's bond0 (eth1+eth2), the bond, its ports and the VLAN each under an installer's profile, before the move.
test('recorded host with a lease on a VLAN on NM\'s own bond: the move planned with the vlan profile only, the bond\'s profile recorded', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-nmbond-dhcp-fresh.txt'));
  const bondConn = s.nm.devices.find((d) => d.device === 'bond0')!.conUuid;
  t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected' });
  const m = move(s, { uplink: undefined });
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'dhcp', addrs: [], nmConn: s.nm.devices.find((d) => d.device === 'bond0.100')!.conUuid,
    device: { kind: 'vlan', id: 100, parent: 'bond0', parentNmConn: bondConn, parentBond: { options: 'mode active-backup miimon 100 updelay 200 primary eth1'.split(' '), members: ['eth1', 'eth2'] } } });
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 /);
  t.regex(m.txn.nm!, /type ovs-interface con-name ovs-if-br-ex .* ipv4\.method auto ipv4\.dhcp-client-id mac /);
  t.notRegex(m.txn.nm!, /ovs-parent|ovs-slave|ip link delete/);
});

test('recorded host after the nm backend moved the VLAN on NM\'s own bond with its lease: converged, not refused', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-nmbond-dhcp-moved.txt'));
  t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
  t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected' });
  const prev = parsePrev(s.files[prevPath('br-ex')]!)!;
  t.like(prev, { method: 'dhcp', device: { parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid } }, 'NM\'s bond still under the profile the move recorded');
  t.deepEqual(planUplink(s, args({ uplink: undefined })).filter(isTxnChange), []);
});

test('recorded host with a static address on a VLAN on NM\'s own bond: ovs-if-br-ex takes the address and gateway, the bond stays NM\'s', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-nmbond-static-fresh.txt'));
  const m = move(s, { uplink: undefined });
  t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'static', addrs: ['172.31.221.11/24'], routes: ['default via 172.31.221.1 metric 400'],
    device: { kind: 'vlan', parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid } });
  t.regex(m.txn.nm!, /type ovs-interface con-name ovs-if-br-ex .* ipv4\.method manual ipv4\.addresses 172\.31\.221\.11\/24 ipv4\.gateway 172\.31\.221\.1 /);
  t.notRegex(m.txn.nm!, /ovs-parent|ovs-slave|ip link delete/);
});

test('recorded host, NM\'s active-backup bond without an IPv6 link-local (its profile\'s ipv6.method disabled): refused before a change, naming the fix', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-nmbond-static-fresh.txt'));
  const bond = s.links.find((l) => l.name === 'bond0')!;
  t.true(bond.addrs.some((a) => a.scope === 'link'), 'as recorded: the bond has its link-local, and moves (above)');
  bond.addrs = bond.addrs.filter((a) => a.scope !== 'link');
  t.throws(() => planUplink(s, args({ uplink: undefined })), { message: /the uplink bond0\.100 is a VLAN on the active-backup bond bond0, which NetworkManager holds under its own profile without an IPv6 link-local .* Give bond0's profile ipv6\.method link-local \(or ignore\) first$/ });
});

// Recorded on the VM host of test/vm/nm-vlan-nmlacp-uplink.test.ts: bond0.100 with a static address on NM's LACP
// bond0 (802.3ad, lacp_rate fast, layer3+4; NM enslaved eth2 first, so the bond and the VLAN have eth2's MAC),
// aggregated with the switch VM, before the move.
test('recorded host with a static address on a VLAN on NM\'s own LACP bond: the vlan profile only, the bond\'s options recorded, no link-local needed', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-nmlacp-static-fresh.txt'));
  const bondConn = s.nm.devices.find((d) => d.device === 'bond0')!.conUuid;
  const m = move(s, { uplink: undefined });
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'static', addrs: ['172.31.221.11/24'], routes: ['default via 172.31.221.1 metric 400'],
    device: { kind: 'vlan', id: 100, parent: 'bond0', parentNmConn: bondConn,
      parentBond: { options: 'mode 802.3ad miimon 100 xmit_hash_policy layer3+4 lacp_rate fast'.split(' '), members: ['eth1', 'eth2'] } } });
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 .*cloned-mac-address 52:54:02:a1:ae:0b /);
  t.notRegex(m.txn.nm!, /ovs-parent|ovs-slave|type bond|ip link delete/, 'NM\'s LACP bond and its ports stay as they are');
  // The link-local refusal is active-backup's (the failover's NA); an aggregate's switch holds the MAC.
  const bond = s.links.find((l) => l.name === 'bond0')!;
  bond.addrs = bond.addrs.filter((a) => a.scope !== 'link');
  t.notThrows(() => planUplink(s, args({ uplink: undefined })));
  // NM's SLAAC and DHCPv6 on such a VLAN move on an LACP bond too (nm-vlan-nmbond-ipv6-auto-uplink.test.ts;
  // recorded: ovs-gateway-nm-vlan-nmlacp-ipv6.test.ts).
  const vlan = s.links.find((l) => l.name === 'bond0.100')!;
  vlan.addrs.push({ family: 'inet6', local: 'fd21:100::3efb:372d:93ab:0', prefixlen: 64, scope: 'global', dynamic: true });
  s.routes.push({ family: 6, dst: 'default', gateway: 'fe80::1', dev: 'bond0.100', protocol: 'ra', metric: 400 });
  t.regex(move(s, { uplink: undefined }).txn.nm!, /con-name ovs-if-br-ex .* ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::3efb:372d:93ab:0 /);
  Object.assign(vlan.addrs.at(-1)!, { local: 'fd21:100::13c', prefixlen: 128 });
  s.nmDhcp6 = { 'bond0.100': { duid: '00:04:aa:bb', iaid: 7, addrs: ['fd21:100::13c'] } };
  t.regex(move(s, { uplink: undefined }).txn.nm!, /con-name ovs-if-br-ex .* ipv6\.method auto ipv6\.dhcp-duid 00:04:aa:bb ipv6\.dhcp-iaid 00:00:00:07 /, 'DHCPv6 there: the VLAN\'s DUID and IAID');
});

// Recorded on the VM hosts of the 802.1ad tests of test/vm/nm-vlan-nmbond-uplink.test.ts (static and a lease on NM's
// active-backup bond0) and nm-vlan-nmlacp-uplink.test.ts (static on NM's LACP bond0): bond0.100 an 802.1ad VLAN
// (NM's vlan profile with vlan.protocol 802.1ad; 172.31.221.11/24 static or leased), before the move and after it.
const QINQ_RECORDED: { probe: string; method: 'static' | 'dhcp'; mode: string }[] = [
  { probe: 'nmbond-qinq-static', method: 'static', mode: 'active-backup' },
  { probe: 'nmlacp-qinq-static', method: 'static', mode: '802.3ad' },
  { probe: 'nmbond-qinq-dhcp', method: 'dhcp', mode: 'active-backup' },
];
for (const q of QINQ_RECORDED) {
  test(`recorded host, ${q.method} on an 802.1ad VLAN on NM's own ${q.mode} bond: ovs-if-phys0 carries vlan.protocol 802.1ad, the bond stays NM's`, (t) => {
    const s = parseGatewayProbe(caseText(`probe-vlan-${q.probe}-fresh.txt`));
    t.is(s.links.find((l) => l.name === 'bond0.100')!.info!.protocol, '802.1ad');
    t.is(s.links.find((l) => l.name === 'bond0')!.info!.mode, q.mode);
    const m = move(s, { uplink: undefined });
    t.regex(m.summary, /^move bond0\.100 into br-ex/);
    t.like(parseEnvText(m.txn.env!), { KIND: 'vlan', VLAN_PROTO: '802.1ad', VLAN_PARENT: 'bond0', METHOD: q.method, BACKEND: 'nm' });
    t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: q.method, addrs: q.method === 'static' ? ['172.31.221.11/24'] : [], nmConn: s.nm.devices.find((d) => d.device === 'bond0.100')!.conUuid,
      device: { kind: 'vlan', id: 100, protocol: '802.1ad', parent: 'bond0', parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid } });
    t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 vlan\.protocol 802\.1ad /);
    if (q.method === 'dhcp') t.regex(m.txn.nm!, /type ovs-interface con-name ovs-if-br-ex .* ipv4\.method auto ipv4\.dhcp-client-id mac /);
    t.notRegex(m.txn.nm!, /ovs-parent|ovs-slave|ip link delete/);
  });

  test(`recorded host after the nm backend moved the ${q.method} 802.1ad VLAN on NM's own ${q.mode} bond: converged, not refused as QinQ again`, (t) => {
    const s = parseGatewayProbe(caseText(`probe-vlan-${q.probe}-moved.txt`));
    t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
    t.is(s.links.find((l) => l.name === 'bond0.100')!.info!.protocol, '802.1ad', 'NM made the VLAN 802.1ad from ovs-if-phys0');
    t.like(parsePrev(s.files[prevPath('br-ex')]!)?.device, { kind: 'vlan', protocol: '802.1ad', parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid });
    t.deepEqual(planUplink(s, args({ uplink: undefined })).filter(isTxnChange), []);
  });
}

// Recorded on the VM host of test/vm/nm-vlan-nmbond-ipv6-auto-uplink.test.ts: bond0.100 on NM's active-backup bond0,
// its vlan profile with a static IPv4 address and ipv6.method auto, NM's SLAAC (stable-privacy) from the peer's
// RAs on the VLAN and the RA's default route, before the move.
test('recorded host with NM\'s SLAAC on a VLAN on NM\'s own bond: ovs-if-br-ex makes the same address from its identifier, the bond stays NM\'s', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-nmbond-slaac-fresh.txt'));
  t.like(s.links.find((l) => l.name === 'bond0.100')!.addrs.find((a) => a.local === 'fd21:100::3efb:372d:93ab:0'), { prefixlen: 64, dynamic: true }, 'NM\'s SLAAC as recorded');
  const m = move(s, { uplink: undefined });
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'static', addrs: ['172.31.221.11/24'], v6: { method: 'auto', raDefault: true },
    device: { kind: 'vlan', id: 100, parent: 'bond0', parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid } });
  t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', TOKENS6: '::3efb:372d:93ab:0', DUID6: '', BACKEND: 'nm' });
  t.regex(m.txn.nm!, /type ovs-interface con-name ovs-if-br-ex .* ipv4\.method manual ipv4\.addresses 172\.31\.221\.11\/24 ipv4\.gateway 172\.31\.221\.1 .*ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::3efb:372d:93ab:0 /);
  t.notRegex(m.txn.nm!, /fd21:100::3efb|ipv6\.dhcp-duid/, 'the SLAAC address is made again, not set; no DHCPv6 identity');
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 /);
  t.notRegex(m.txn.nm!, /ovs-parent|ovs-slave|type bond|ip link delete/, 'NM\'s bond and its ports stay as they are');
});

for (const [kind, addr, len] of [['slaac', 'fd21:100::3efb:372d:93ab:0', 64], ['dhcp6', 'fd21:100::13c', 128]] as const) {
  test(`recorded host after the nm backend moved the VLAN on NM's own bond with NM's ${kind}: the same address on br-ex, converged`, (t) => {
    const s = parseGatewayProbe(caseText(`probe-vlan-nmbond-${kind}-moved.txt`));
    t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
    t.like(s.links.find((l) => l.name === 'br-ex')!.addrs.find((a) => a.local === addr), { prefixlen: len, dynamic: true }, `the same ${kind} address on br-ex`);
    t.like(s.routes.find((r) => r.family === 6 && r.dst === 'default'), { dev: 'br-ex', protocol: 'ra', metric: 48 }, 'the RA\'s default route on br-ex');
    t.like(parsePrev(s.files[prevPath('br-ex')]!), { v6: { method: 'auto' }, device: { parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid } });
    t.deepEqual(planUplink(s, args({ uplink: undefined })).filter(isTxnChange), []);
  });
}

// Recorded on the VM host of test/vm/nm-vlan-nmbond-ipv6-auto-uplink.test.ts (DHCPv6): bond0.100 on NM's
// active-backup bond0, its vlan profile with a static IPv4 address and ipv6.method auto, NM's DHCPv6 lease
// (RAs saying managed) and the RA's default route, before the move.
test('recorded host with NM\'s DHCPv6 lease on a VLAN on NM\'s own bond: ovs-if-br-ex sends the VLAN\'s DUID and IAID, the bond stays NM\'s', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-nmbond-dhcp6-fresh.txt'));
  t.like(s.nmDhcp6?.['bond0.100'], { duid: '00:04:32:11:2e:d9:51:b2:1a:02:c5:2d:95:d1:eb:6b:0d:c1', addrs: ['fd21:100::13c'] }, 'NM\'s lease as recorded');
  const m = move(s, { uplink: undefined });
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'static', addrs: ['172.31.221.11/24'], v6: { method: 'auto', raDefault: true },
    device: { kind: 'vlan', id: 100, parent: 'bond0', parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid } });
  t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', TOKENS6: '', DUID6: '00:04:32:11:2e:d9:51:b2:1a:02:c5:2d:95:d1:eb:6b:0d:c1', IAID6: String(0xf2e6dfcd), BACKEND: 'nm' });
  t.regex(m.txn.nm!, /type ovs-interface con-name ovs-if-br-ex .* ipv6\.method auto ipv6\.dhcp-duid 00:04:32:11:2e:d9:51:b2:1a:02:c5:2d:95:d1:eb:6b:0d:c1 ipv6\.dhcp-iaid f2:e6:df:cd /);
  t.notRegex(m.txn.nm!, /ipv6\.token|fd21:100::13c/, 'no SLAAC address to keep, the lease is not static');
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 /);
  t.notRegex(m.txn.nm!, /ovs-parent|ovs-slave|type bond|ip link delete/, 'NM\'s bond and its ports stay as they are');
});
