// The nm backend with a VLAN on a bond as the uplink. The host as the VM scenario leaves it before the move
// (test/vm/nm-vlan-bond-uplink.test.ts): the probe recorded on a VM host (bond0 = eth1+eth2 active-backup
// made in the kernel with bond0.42 on it) with the node address and default route moved from bond0 onto
// bond0.42, as vlan-lab.ts's vlanTheHost leaves it. The move is MCO's profiles with a vlan profile as
// ovs-if-phys0 (vlan.parent bond0) and the bond under a profile of its own beside OVS, up with its ports
// before the VLAN; what the nm backend cannot do safely is refused before any change.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev, renderPrev } from '../../src/modules/ovs_gateway/env.js';
import { nmUuid } from '../../src/modules/ovs_gateway/nm-profiles.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm', uplink: 'bond0.42', ...o });
const BOND = 'mode=active-backup,miimon=100,updelay=200,primary=eth1,num_grat_arp=3';

/** probe-bond-fresh with bond0's global addresses and routes on bond0.42 (up), as a VLAN-on-bond host has them. */
function vlanOnBond(): GatewayState {
  const s = parseGatewayProbe(caseText('probe-bond-fresh.txt'));
  const bond = s.links.find((l) => l.name === 'bond0')!;
  const vlan = s.links.find((l) => l.name === 'bond0.42')!;
  vlan.up = true;
  vlan.mac = bond.mac;
  vlan.addrs.push(...bond.addrs.filter((a) => a.scope === 'global'));
  bond.addrs = bond.addrs.filter((a) => a.scope !== 'global');
  for (const r of s.routes) if (r.dev === 'bond0') r.dev = 'bond0.42';
  return s;
}

const move = (s: GatewayState, o: Record<string, unknown> = {}) => (planUplink(s, args(o)).filter(isTxnChange) as TxnChange[])[0]!;

test('a VLAN on a kernel-made bond: the bond\'s own profile and its ports, then the vlan profile under ovs-port-phys0 naming the bond', (t) => {
  const s = vlanOnBond();
  const mac = s.links.find((l) => l.name === 'bond0')!.mac!;
  const m = move(s);
  t.regex(m.summary, /^move bond0\.42 into br-ex/);
  t.like(parseEnvText(m.txn.env!), { UPLINK: 'bond0.42', KIND: 'vlan', VLAN_ID: '42', VLAN_PARENT: 'bond0', MEMBERS: 'eth1 eth2', BACKEND: 'nm', MAC: mac });
  const prev = parsePrev(m.txn.prev!)!;
  t.like(prev, { iface: 'bond0.42', addrs: ['10.138.195.11/24', 'fd5c:8b::11/64'], nmUnmanaged: ['bond0.42', 'eth1', 'eth2'] });
  t.is(renderPrev(prev), m.txn.prev!, 'prev round-trips');
  const nm = m.txn.nm!;
  const parent = nmUuid('ovs-parent-bond0');
  // Not under OVS: a bond profile of its own (no master), no IPv4, IPv6 left to the kernel, the live options, the MAC.
  t.regex(nm, new RegExp(`^nmcli connection add type bond con-name ovs-parent-bond0 connection\\.uuid ${parent} connection\\.interface-name bond0 connection\\.autoconnect-priority 100 bond\\.options ${BOND} ipv4\\.method disabled ipv6\\.method ignore 802-3-ethernet\\.mtu 1500 802-3-ethernet\\.cloned-mac-address ${mac} save no$`, 'm'));
  for (const p of ['eth1', 'eth2']) t.regex(nm, new RegExp(`^nmcli connection add type 802-3-ethernet con-name ovs-slave-${p} connection\\.uuid ${nmUuid(`ovs-slave-${p}`)} connection\\.interface-name ${p} connection\\.master ${parent} connection\\.slave-type bond `, 'm'));
  t.regex(nm, new RegExp(`^nmcli connection add type vlan con-name ovs-if-phys0 connection\\.uuid ${nmUuid('ovs-if-phys0')} connection\\.interface-name bond0\\.42 connection\\.master ${nmUuid('ovs-port-phys0')} connection\\.slave-type ovs-port connection\\.autoconnect-priority 100 vlan\\.parent bond0 vlan\\.id 42 802-3-ethernet\\.mtu 1500 802-3-ethernet\\.cloned-mac-address ${mac} save no$`, 'm'));
  t.true(nm.indexOf('con-name ovs-parent-bond0') < nm.indexOf('con-name ovs-slave-eth1'), 'the bond\'s profile exists before its ports name it');
  t.notRegex(nm.split('\n').find((l) => l.includes('type vlan'))!, /ipv4|ipv6/, 'a port under OVS takes no IP settings');
});

test('the activation: the kernel VLAN and bond go, NM\'s bond up, then its ports (tried again) and its link-local back, then the VLAN under OVS', (t) => {
  const nm = move(vlanOnBond()).txn.nm!;
  const up = nm.slice(nm.indexOf('\nup)\n'), nm.indexOf('\n;;\n'));
  // The bond first, then its ports handed over: with the bond's activation in the background and the ports handed
  // over first, a port's activation failed on a VM ("A dependency of the connection failed").
  const order = ['ip link delete dev bond0.42', 'ip link delete dev bond0;', 'nmcli --wait 60 connection up ovs-parent-bond0\n', 'nmcli device set eth1 managed yes',
    'nmcli device set eth2 managed yes', 'connection up ovs-slave-eth1', 'connection up ovs-slave-eth2',
    'echo 0 >/proc/sys/net/ipv6/conf/bond0/addr_gen_mode', 'connection up ovs-if-phys0', 'connection up ovs-if-br-ex', 'wait $phys', 'connection.autoconnect yes'];
  const at = order.map((w) => up.indexOf(w));
  t.false(at.includes(-1), `every step planned: ${order.filter((_, i) => at[i] === -1).join(', ')}`);
  t.deepEqual([...at].sort((a, b) => a - b), at, 'in this order');
  t.regex(up, /^i=0; until \[ "\$\(nmcli -g GENERAL\.STATE connection show ovs-slave-eth1 2>\/dev\/null\)" = activated \] \|\| nmcli --wait 60 connection up ovs-slave-eth1; do i=\$\(\(i\+1\)\); \[ \$i -lt 3 \] \|\| exit 1; sleep 1; done$/m);
  // At boot NM's autoconnect runs ovs-parent-bond0 (and the VLAN's own profile on it) before these lines: such a bond
  // is kept, not deleted and activated again (that churn cost a VM's boot oneshot 200 s, a port's activation failed).
  const parent = nmUuid('ovs-parent-bond0');
  t.regex(up, new RegExp(`^held=0; if \\[ "\\$\\(nmcli -g GENERAL\\.CON-UUID device show bond0 2>/dev/null\\)" = ${parent} \\]; then case "\\$\\(nmcli -g GENERAL\\.STATE connection show ovs-parent-bond0 2>/dev/null\\)" in activat\\*\\) held=1;`, 'm'));
  for (const w of ['if [ -e /proc/net/vlan/bond0.42 ]', 'if [ -d /sys/class/net/bond0/bonding ]', 'nmcli --wait 60 connection up ovs-parent-bond0']) {
    t.true(up.split('\n').some((l) => l.startsWith('[ $held = 1 ] || ') && l.includes(w)), `only where NM does not run the bond under ovs-parent-bond0: ${w}`);
  }
  t.is(up.split('\n').filter((l) => l.includes('addr_gen_mode')).length, 1, 'the link-local written back once, for the parent bond');
  // `down` (and the start of `up`) delete every profile of ours, the bond's and its ports' too.
  t.regex(nm, /^nmcli connection delete ovs-if-br-ex ovs-parent-bond0 ovs-slave-eth1 ovs-slave-eth2 ovs-if-phys0 ovs-port-phys0 ovs-port-br-ex br-ex 2>\/dev\/null \|\| true\nnmcli connection reload$/m);
});

test('refused before any change: a QinQ VLAN with a lease or on an LACP bond, a VLAN on a balance-rr bond, a bond that carries more (a lease on the VLAN of a kernel-made bond moves)', (t) => {
  const refused = (s: GatewayState, why: RegExp, o: Record<string, unknown> = {}) => t.throws(() => planUplink(s, args(o)), { message: why });
  const qinq = () => {
    const q = vlanOnBond();
    q.links.find((l) => l.name === 'bond0.42')!.info!.protocol = '802.1ad';
    return q;
  };
  // A static address on it moves (test/vm/nm-vlan-bond-uplink.test.ts, the 802.1ad scenario; the recorded probes below).
  t.regex(move(qinq()).txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 42 vlan\.protocol 802\.1ad /);
  let s = qinq();
  for (const a of s.links.find((l) => l.name === 'bond0.42')!.addrs) a.dynamic = a.family === 'inet';
  const proven = /; the nm backend moves 802\.1ad VLANs on a NIC; on a bond with a static address on an active-backup one \(NetworkManager's own or kernel-made\) and on an LACP \(802\.3ad\) one NetworkManager holds under its own profile, and with a DHCP lease on an active-backup one NetworkManager holds under its own profile, only so far - use backend: ovs/;
  refused(s, new RegExp(`ovs_gateway: the uplink bond0\\.42 is an 802\\.1ad \\(QinQ\\) VLAN on the kernel-made active-backup bond bond0 with a DHCP lease${proven.source}`));
  t.notThrows(() => planUplink(s, args({ backend: 'ovs' })), 'the ovs backend moves it');
  s = qinq();
  s.links.find((l) => l.name === 'bond0')!.info!.mode = '802.3ad';
  refused(s, new RegExp(`the uplink bond0\\.42 is an 802\\.1ad \\(QinQ\\) VLAN on the kernel-made 802\\.3ad bond bond0${proven.source}`));
  s = vlanOnBond();
  s.links.find((l) => l.name === 'bond0')!.info!.mode = 'balance-rr';
  refused(s, /the uplink bond0\.42 is a VLAN on the balance-rr bond bond0; the nm backend moves VLANs on LACP \(802\.3ad\) and active-backup bonds only so far - use backend: ovs/);
  s = vlanOnBond();
  for (const a of s.links.find((l) => l.name === 'bond0.42')!.addrs) a.dynamic = a.family === 'inet';
  // A lease on the VLAN of a kernel-made bond is moved now (through a power cycle: test/vm/nm-vlan-kbond-dhcp-uplink.test.ts).
  t.notThrows(() => planUplink(s, args()), 'a lease on the VLAN of a kernel-made bond');
  // NM's own bond (MCO's shape) is moved now: ovs-gateway-nm-vlan-nmbond.test.ts.
  // The recorded host as it is: the bond holds the node address itself and carries bond0.42 - the bond made again would drop them.
  refused(parseGatewayProbe(caseText('probe-bond-fresh.txt')), /the uplink bond0\.42 is a VLAN on the bond bond0, which also carries 10\.138\.195\.11\/24, fd5c:8b::11\/64; the nm backend makes the bond again under its own profile and would drop them/);
  s = vlanOnBond();
  s.links.push({ name: 'bond0.7', mtu: 1500, up: true, addrs: [], kind: 'vlan', parent: 'bond0', info: { id: 7, protocol: '802.1Q' } });
  refused(s, /which also carries bond0\.7; the nm backend makes the bond again under its own profile and would drop it - use backend: ovs/);
});

// Recorded on the VM host of test/vm/nm-vlan-bond-uplink.test.ts (HW_RECORD_DIR): bond0.100 on the kernel's
// bond0 (eth1+eth2 unmanaged, bond0 and the VLAN held by NM externally) before the move, and after it.
test('recorded VLAN-on-bond host, fresh: the move planned with the bond\'s profile, the ports NM did not manage remembered', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-bond-nm-fresh.txt'));
  t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected (externally)' });
  const m = move(s, { uplink: undefined });
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', addrs: ['172.31.221.11/24'], nmUnmanaged: ['eth1', 'eth2'],
    device: { kind: 'vlan', id: 100, parent: 'bond0', parentBond: { options: 'mode active-backup miimon 100 updelay 200 primary eth1'.split(' '), members: ['eth1', 'eth2'] } } });
  t.regex(m.txn.nm!, /type bond con-name ovs-parent-bond0 .*bond\.options mode=active-backup,miimon=100,updelay=200,primary=eth1 ipv4\.method disabled ipv6\.method ignore /);
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 /);
});

test('recorded VLAN-on-bond host, moved by the nm backend: converged; the bond NM now holds under our profile is not refused', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-bond-nm-moved.txt'));
  t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
  t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected', conUuid: nmUuid('ovs-parent-bond0') });
  t.deepEqual(planUplink(s, args({ uplink: undefined })).filter(isTxnChange), []);
});

// Recorded on the VM host of test/vm/nm-vlan-kbond-dhcp-uplink.test.ts (HW_RECORD_DIR): bond0.100 with a lease under
// NM's own vlan profile, on the kernel's bond0 (NM shows it externally, eth1+eth2 unmanaged), before and after the move.
test('recorded host with a lease on a VLAN on a kernel-made bond (NM\'s vlan profile): moved - the bond under ovs-parent-bond0, the lease on ovs-if-br-ex with the MAC as client id; converged after it', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-kbond-dhcp-fresh.txt'));
  t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected (externally)' });
  t.like(s.nm.devices.find((d) => d.device === 'bond0.100'), { state: 'connected' });
  const m = move(s, { uplink: undefined });
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  const env = parseEnvText(m.txn.env!);
  t.like(env, { UPLINK: 'bond0.100', METHOD: 'dhcp', KIND: 'vlan', VLAN_PARENT: 'bond0', MEMBERS: 'eth1 eth2', BACKEND: 'nm' });
  const nm = m.txn.nm!;
  t.regex(nm, /^nmcli connection add type bond con-name ovs-parent-bond0 .*bond\.options mode=active-backup,miimon=100,updelay=200,primary=eth1/m);
  t.regex(nm.split('\n').find((l) => l.includes('con-name ovs-if-br-ex'))!, / ipv4\.method auto ipv4\.dhcp-client-id mac /);
  t.true(nm.includes('[ $held = 1 ] || nmcli --wait 60 connection up ovs-parent-bond0'), 'a bond NM runs under ovs-parent-bond0 (at boot) is kept');
  const moved = parseGatewayProbe(caseText('probe-vlan-kbond-dhcp-moved.txt'));
  t.like(moved.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected', conUuid: nmUuid('ovs-parent-bond0') });
  t.deepEqual(planUplink(moved, args({ uplink: undefined })).filter(isTxnChange), [], 'a second run changes nothing');
});

// Recorded on the VM host of test/vm/nm-vlan-bond-uplink.test.ts (the 802.1ad test): bond0.100 an 802.1ad VLAN
// (kernel-made, 172.31.221.11/24 static) on the kernel's active-backup bond0 (eth1+eth2 unmanaged), before the move and after it.
test('recorded host with a static address on an 802.1ad VLAN on a kernel-made bond: ovs-parent-bond0 and ovs-if-phys0 with vlan.protocol 802.1ad; converged after the move', (t) => {
  const s = parseGatewayProbe(caseText('probe-vlan-bond-nm-qinq-fresh.txt'));
  t.is(s.links.find((l) => l.name === 'bond0.100')!.info!.protocol, '802.1ad');
  t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected (externally)' });
  const m = move(s, { uplink: undefined });
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  t.like(parseEnvText(m.txn.env!), { KIND: 'vlan', VLAN_PROTO: '802.1ad', VLAN_PARENT: 'bond0', MEMBERS: 'eth1 eth2', BACKEND: 'nm' });
  t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'static', addrs: ['172.31.221.11/24'], nmUnmanaged: ['eth1', 'eth2'], device: { kind: 'vlan', id: 100, protocol: '802.1ad', parent: 'bond0' } });
  t.regex(m.txn.nm!, /type bond con-name ovs-parent-bond0 .*bond\.options mode=active-backup,miimon=100,updelay=200,primary=eth1 /);
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 vlan\.protocol 802\.1ad /);
  const moved = parseGatewayProbe(caseText('probe-vlan-bond-nm-qinq-moved.txt'));
  t.is(moved.links.find((l) => l.name === 'bond0.100')!.info!.protocol, '802.1ad', 'NM made the VLAN 802.1ad from ovs-if-phys0');
  t.like(moved.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected', conUuid: nmUuid('ovs-parent-bond0') });
  t.deepEqual(planUplink(moved, args({ uplink: undefined })).filter(isTxnChange), [], 'not refused as QinQ again, nothing to do');
});
