// The nm backend with a bond uplink, against what was recorded on a VM host whose NM 1.42 has its OVS plugin
// (`lab up --vms 1 --vm-nics 3 --nm-ovs`, bond0 = eth1+eth2 active-backup made in the kernel, its ports
// unmanaged by NM): the staged script that moved it, and NM's and the kernel's view after the move
// (cases/nm-bond-br-ex.txt): the bond profile under ovs-port-phys0 with the live bond's options and MAC,
// its ports bond-slave profiles naming it by UUID, the kernel datapath, the address on br-ex at metric 48.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { props, sections } from '../helpers/nm-backend.js';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import type { BridgeEnv, UplinkConfig } from '../../src/modules/ovs_gateway/env.js';
import { parsePrev, renderPrev } from '../../src/modules/ovs_gateway/env.js';
import { nmBondOptions } from '../../src/modules/ovs_gateway/nm-device-profiles.js';
import { nmUuid, planNmDown, planNmProfiles } from '../../src/modules/ovs_gateway/nm-profiles.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');


// The inputs of the recorded move (VM host nmbond23x-1).
const OPTS = 'mode active-backup miimon 100 updelay 200 primary eth1'.split(' ');
const device = { kind: 'bond' as const, options: OPTS, members: ['eth1', 'eth2'] };
const u: UplinkConfig = { iface: 'bond0', mac: '42:38:b8:8b:a2:fb', mtu: 1500, method: 'static', addrs: ['10.132.178.11/24'], routes: ['default via 10.132.178.1'], gateways: ['10.132.178.1'], device, nmUnmanaged: ['eth1', 'eth2'] };
const e: BridgeEnv = { bridge: 'br-ex', uplink: 'bond0', mac: u.mac, mtu: 1500, method: 'static', addrs: u.addrs, routes: ['default via 10.132.178.1 metric 48'], metric: 48, datapath: 'system', dropIngress: false, check: ['10.132.178.1'], backend: 'nm', device };
const rec = sections(caseText('nm-bond-br-ex.txt'));
const LINK_LOCAL = /^if \[ "\$\(cat \/proc\/sys\/net\/ipv6\/conf\/bond0\/disable_ipv6 .*\nif \[ -e \/proc\/sys\/net\/ipv6\/conf\/bond0\/addr_gen_mode \].*\n/m;

test('the staged script that moved the bond is the one planned: bond profile under ovs-port-phys0, ports by the bond\'s UUID', (t) => {
  const script = planNmProfiles(u, e, true).join('\n');
  // Recorded before the bond's link-local was planned back and when the ports came up after ovs-if-br-ex
  // (each has its own test below): the rest is as staged.
  const recorded = rec.get('nm-script')!.join('\n').trim().replace(/^nmcli --wait 60 connection up ovs-slave-eth\d\n/gm, '');
  // Recorded before a bond NM runs under ovs-if-phys0 at boot was kept (held; its test below): as the move ran it.
  const asMoved = script.replace(/^held=0; .*\n/m, '').replace(/^\[ \$held = 1 \] \|\| \{ (.*); \}$/m, '$1')
    .replace(/^\{ if \[ \$held = 1 \]; .* \|\| (nmcli --wait 60 connection up ovs-if-phys0); \} >/m, '$1 >').replace(/^i=0; while .*\n/gm, '');
  t.is(recorded, asMoved.replace(LINK_LOCAL, '').replace(/ \|\| \{ tail -n \+1 .*$/m, '').replace(/^.*(\bports\b|ports\.\$\$).*\n/gm, '').trim());
  // The kernel-made bond goes first (NM could not re-write its options with ports in it), its ports handed to NM.
  t.regex(script, /^\[ \$held = 1 \] \|\| \{ if \[ -d \/sys\/class\/net\/bond0\/bonding \]; then ip link delete dev bond0; fi; \}\nnmcli device set eth1 managed yes[^\n]*\nnmcli device set eth2 managed yes/m);
  t.regex(script, /nmcli connection add type bond con-name ovs-if-phys0 [^\n]*bond\.options mode=active-backup,miimon=100,updelay=200,primary=eth1 [^\n]*cloned-mac-address 42:38:b8:8b:a2:fb save no/);
  t.notRegex(script.split('\n').find((l) => l.includes('type bond'))!, /ipv4|ipv6/, 'NM refuses IP settings on a bond under an ovs-port');
  t.regex(planNmDown(e, true)[0]!, /^nmcli connection delete ovs-if-br-ex ovs-slave-eth1 ovs-slave-eth2 ovs-if-phys0 ovs-port-phys0 ovs-port-br-ex br-ex /);
});

test('the ports\' activations start once the bridge exists, before ovs-if-br-ex (its DHCP needs the bond\'s carrier); after it a port not active is activated again', (t) => {
  const script = planNmProfiles(u, e, true);
  const at = (re: RegExp) => script.findIndex((l) => re.test(l));
  const bridge = at(/^i=0; until ovs-vsctl --timeout=5 br-exists br-ex;/);
  const ifBr = at(/^nmcli --wait 60 connection up ovs-if-br-ex /);
  const log = '"/run/hostwire/nm-br-ex-ports.$$"';
  const state = (c: string) => `"$(nmcli -g GENERAL.STATE connection show ${c} 2>/dev/null)"`;
  const start = script.indexOf(`{ case ${state('ovs-slave-eth1')} in activat*) ;; *) nmcli --wait 60 connection up ovs-slave-eth1 ;; esac; `
    + `case ${state('ovs-slave-eth2')} in activat*) ;; *) nmcli --wait 60 connection up ovs-slave-eth2 ;; esac; } >${log} 2>&1 & ports=$!`);
  t.true(bridge < start && start < ifBr, 'one background job activates eth1 then eth2 (unless NM activates one already), between the bridge and ovs-if-br-ex');
  const wait = script.indexOf('wait $ports || true');
  t.true(wait > ifBr, 'waited for after ovs-if-br-ex; its result is not the move\'s');
  const settle = (c: string) => [`i=0; while [ ${state(c)} = activating ] && [ $i -lt 60 ]; do i=$((i+1)); sleep 1; done`,
    `[ ${state(c)} = activated ] || nmcli --wait 60 connection up ${c} || { cat ${log}; rm -f ${log}; exit 1; }`];
  t.deepEqual(script.slice(wait + 1, wait + 6), [...settle('ovs-slave-eth1'), ...settle('ovs-slave-eth2'), `rm -f ${log}`],
    'a port NM still activates is waited for (60 s); one not active by then is activated in the foreground, a failure showing what the background job said');
  t.true(script[ifBr]!.endsWith(` || { tail -n +1 "/run/hostwire/nm-br-ex.$$" ${log} 2>/dev/null; exit 1; }`), 'a failed ovs-if-br-ex shows what the background activations said');
  // A NIC has no ports: its activation stays as recorded (ovs-gateway-nm.test.ts).
  t.false(planNmProfiles({ ...u, iface: 'eth1', device: undefined }, { ...e, uplink: 'eth1', device: undefined }, true).some((l) => /ports|tail -n/.test(l)));
});

test('after its ports, the bond gets its IPv6 link-local back (NM gives a port none): the failover\'s NA tells the far end', (t) => {
  const script = planNmProfiles(u, e, true).join('\n');
  const conf = '\\/proc\\/sys\\/net\\/ipv6\\/conf\\/bond0';
  t.regex(script, new RegExp(`rm -f "\\/run\\/hostwire\\/nm-br-ex-ports\\.\\$\\$"\n`
    // IPv6 disabled on the host (the bond made with disable_ipv6 1): the bond alone gets it back, without RAs.
    + `if \\[ "\\$\\(cat ${conf}\\/disable_ipv6 2>\\/dev\\/null\\)" = 1 \\]; then echo 0 >${conf}\\/accept_ra && echo 0 >${conf}\\/disable_ipv6; fi\n`
    + `if \\[ -e ${conf}\\/addr_gen_mode \\]; then echo 0 >${conf}\\/addr_gen_mode; fi\nnmcli connection modify --temporary ovs-if-br-ex connection\\.autoconnect yes`));
  const vlan = { kind: 'vlan' as const, id: 100, protocol: '802.1Q', parent: 'eth1' };
  t.notRegex(planNmProfiles({ ...u, iface: 'eth1.100', device: vlan }, { ...e, uplink: 'eth1.100', device: vlan }, true).join('\n'), /addr_gen_mode/, 'a VLAN is not a bond');
});

test('NM stored the bond profile as planned and activated the whole set on the kernel datapath', (t) => {
  const bond = props(rec.get('bond-profile')!);
  t.like(bond, { 'connection.type': 'bond', 'connection.interface-name': 'bond0', 'connection.uuid': nmUuid('ovs-if-phys0'), 'connection.master': nmUuid('ovs-port-phys0'), 'connection.slave-type': 'ovs-port', '802-3-ethernet.mtu': '1500' });
  // NM sorts the options: the same set as the live bond's.
  t.deepEqual(bond['bond.options']!.split(',').sort(), nmBondOptions('bond0', device).split(',').sort());
  t.is(bond['802-3-ethernet.cloned-mac-address']!.toLowerCase(), u.mac);
  const slaves = rec.get('slaves')!.join('\n').split('\n\n').map((b) => props(b.split('\n')));
  t.deepEqual(slaves.map((s) => [s['connection.interface-name'], s['connection.master'], s['connection.slave-type'], s['connection.uuid']]),
    [['eth1', nmUuid('ovs-if-phys0'), 'bond', nmUuid('ovs-slave-eth1')], ['eth2', nmUuid('ovs-if-phys0'), 'bond', nmUuid('ovs-slave-eth2')]]);
  t.like(props(rec.get('ifbr')!), { 'ipv4.method': 'manual', 'ipv4.addresses': '10.132.178.11/24', 'ipv4.route-metric': '48', '802-3-ethernet.cloned-mac-address': '42:38:B8:8B:A2:FB' });
  t.is(rec.get('active')!.filter((l) => l && !l.startsWith('lo:')).join('\n'), ['br-ex:ovs-bridge:br-ex', 'ovs-if-br-ex:ovs-interface:br-ex', 'ovs-if-phys0:bond:bond0', 'ovs-port-br-ex:ovs-port:br-ex',
    'ovs-port-phys0:ovs-port:bond0', 'ovs-slave-eth1:802-3-ethernet:eth1', 'ovs-slave-eth2:802-3-ethernet:eth2'].map((l) => `${l}:activated`).join('\n'));
  t.is(rec.get('kernel')!.join('\n').trim(), 'Bonding Mode: fault-tolerance (active-backup)\nPrimary Slave: eth1 (primary_reselect always)\nMII Polling Interval (ms): 100\nUp Delay (ms): 200\n'
    + 'Slave Interface: eth1\nSlave Interface: eth2\n42:38:b8:8b:a2:fb\n42:38:b8:8b:a2:fb\nsystem\nbond0\ndefault via 10.132.178.1 dev br-ex proto static metric 48');
});

test('bond options in NM\'s words; ARP targets refused clearly on the nm backend', (t) => {
  t.is(nmBondOptions('b', { options: ['mode', '802.3ad', 'lacp_rate', 'fast', 'xmit_hash_policy', 'layer3+4', 'peer_notify_delay', '200'], members: [] }), 'mode=802.3ad,lacp_rate=fast,xmit_hash_policy=layer3+4,peer_notif_delay=200');
  t.throws(() => nmBondOptions('b', { options: ['mode', 'active-backup', 'arp_interval', '100', 'arp_ip_target', '10.0.0.1'], members: [] }), { message: /bond b uses arp_ip_target; the nm backend does not carry ARP monitoring targets over yet - use backend: ovs/ });
});

test('recorded bond probe, nm backend: the move stages the bond profiles and remembers the ports NM did not manage', (t) => {
  const s = parseGatewayProbe(caseText('probe-bond-fresh.txt'));
  const args = ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm' });
  // Modes whose failover is not proven under NM's profile are refused (active-backup and LACP are).
  const bond0 = s.links.find((l) => l.name === 'bond0')!;
  const recorded = bond0.info;
  bond0.info = { ...recorded, mode: 'balance-rr' };
  t.throws(() => planUplink(s, args), { message: /the uplink bond0 is a balance-rr bond; the nm backend moves LACP \(802\.3ad\) and active-backup bonds only so far - use backend: ovs/ });
  bond0.info = recorded;
  // A lease on the bond: moved, ovs-if-br-ex taking DHCP with the MAC as client id (proven on a VM).
  const v4 = bond0.addrs.find((a) => a.family === 'inet')!;
  v4.dynamic = true;
  const leased = (planUplink(s, args).filter(isTxnChange) as TxnChange[])[0]!;
  t.regex(leased.txn.nm!, /con-name ovs-if-br-ex .*ipv4\.method auto ipv4\.dhcp-client-id mac /);
  t.regex(leased.txn.nm!, / connection up ovs-slave-eth2 ;; esac; } >[^\n]* & ports=\$!\nnmcli --wait 60 connection up ovs-if-br-ex /, 'its ports under way first');
  v4.dynamic = false;
  const move = (planUplink(s, ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm' })).filter(isTxnChange) as TxnChange[])[0]!;
  t.regex(move.summary, /^move bond0 into br-ex/);
  const prev = parsePrev(move.txn.prev!)!;
  t.deepEqual(prev.nmUnmanaged, ['eth1', 'eth2'], 'unmanaged again on rollback');
  t.regex(move.txn.prev!, /^NM_UNMANAGED='eth1 eth2'$/m);
  t.is(renderPrev(prev), move.txn.prev!, 'prev round-trips');
  t.regex(move.txn.nm!, /type bond con-name ovs-if-phys0 .*bond\.options mode=active-backup,miimon=100,updelay=200,primary=eth1,num_grat_arp=3 /);
  t.false(/NM_UNMANAGED/.test(renderPrev({ ...u, nmUnmanaged: undefined })), 'the ovs backend\'s files stay as they were');
});

test('a VLAN on a NIC: a vlan profile under ovs-port-phys0 (parent, id, the VLAN\'s MAC), NM makes the VLAN; 802.1ad with vlan.protocol', (t) => {
  const vlan = { kind: 'vlan' as const, id: 100, protocol: '802.1Q', parent: 'eth1' };
  const ev: BridgeEnv = { ...e, uplink: 'eth1.100', device: vlan };
  const script = planNmProfiles({ ...u, iface: 'eth1.100', device: vlan, nmUnmanaged: ['eth1'] }, ev, true).join('\n');
  t.regex(script, /^nmcli connection add type vlan con-name ovs-if-phys0 connection\.uuid \S+ connection\.interface-name eth1\.100 connection\.master \S+ connection\.slave-type ovs-port connection\.autoconnect-priority 100 vlan\.parent eth1 vlan\.id 100 802-3-ethernet\.mtu 1500 802-3-ethernet\.cloned-mac-address 42:38:b8:8b:a2:fb save no$/m);
  t.regex(script, /^if \[ -e \/proc\/net\/vlan\/eth1\.100 \]; then ip link delete dev eth1\.100; fi$/m);
  t.notRegex(script, /managed yes|ovs-slave-/, 'the parent NIC stays as it is');
  t.regex(planNmProfiles(u, { ...ev, device: { ...vlan, protocol: '802.1ad' } }, true).join('\n'), / vlan\.parent eth1 vlan\.id 100 vlan\.protocol 802\.1ad 802-3-ethernet\.mtu /);
  t.throws(() => planNmProfiles(u, { ...ev, device: { ...vlan, protocol: '802.1x' } }, true), { message: /VLAN eth1\.100 is 802\.1x; the nm backend moves 802\.1Q and 802\.1ad VLANs only - use backend: ovs/ });
});
