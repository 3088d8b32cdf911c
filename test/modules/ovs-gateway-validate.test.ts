// ovs_gateway refuses, before touching the host, every input that once stranded a lab host or was
// confirmed wrongly: a bridge named after an existing non-OVS link (lo, eth1), the extra bridge,
// malformed addresses, an MTU outside the range or above the NIC's maximum, a gateway that is the
// host's own address. And a moved host without a default route still finds its recorded uplink.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { chooseUplink } from '../../src/modules/ovs_gateway/choose-uplink.js';
import { parseGatewayProbe, type GatewayState, type Link } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink } from '../../src/modules/ovs_gateway/plan-uplink.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const probe = (n: string) => parseGatewayProbe(caseText(`${n}.txt`));
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', ...o });
const argError = (o: Record<string, unknown>) => {
  const r = ovsGatewayArgs.safeParse({ mode: 'uplink', ...o });
  return r.success ? '' : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
};
const eth1: Link = { name: 'eth1', mac: '02:00:00:00:00:01', mtu: 1500, up: true, linkType: 'ether', kind: 'veth', maxMtu: 65535,
  addrs: [{ family: 'inet', local: '192.168.77.1', prefixlen: 24, scope: 'global', dynamic: false }] };
const withEth1 = (s: GatewayState): GatewayState => ({ ...s, links: [...s.links, eth1] });

test('addresses, MTU and bridge names are validated with the argument named', (t) => {
  t.regex(argError({ gateway: '10.121.228.300' }), /^gateway: expected an IPv4 address like 192\.0\.2\.1$/);
  t.regex(argError({ gateway: '10.1.2.3/24' }), /^gateway: expected an IPv4 address/);
  t.regex(argError({ gateway: 'fe80::1' }), /^gateway: expected an IPv4 address/, 'the gateway replaces the v4 default route');
  t.regex(argError({ node_ip: '10.0.0.256' }), /^node_ip: expected an IPv4 or IPv6 address/);
  t.regex(argError({ check_targets: ['10.0.0.1', 'x; reboot'] }), /^check_targets\.1: expected an IPv4 or IPv6 address/);
  t.regex(argError({ check_targets: [] }), /^check_targets: /);
  t.regex(argError({ mtu: 9217 }), /^mtu: /);
  t.regex(argError({ mtu: 576 }), /^mtu: /);
  t.regex(argError({ bridge: 'br-ex1' }), /^extra_bridge: bridge and extra_bridge are both br-ex1/);
  t.regex(argError({ uplink: 'br-ex' }), /^uplink: uplink br-ex is one of the OVS bridges/);
  t.is(argError({ gateway: '10.121.228.254', mtu: 9000, check_targets: ['10.0.0.1', 'fd00::1'], node_ip: 'fd00::5' }), '');
});

test('a bridge named after an existing non-OVS link is refused before any change is planned', (t) => {
  const s = withEth1(probe('probe-static-fresh'));
  // The recorded probe predates `ip -d`: lo is known by its link_type alone.
  t.throws(() => planUplink(s, args({ bridge: 'lo' })), { message: /^ovs_gateway: bridge lo is the loopback device, not an OVS bridge/ });
  t.throws(() => planUplink(s, args({ bridge: 'eth1' })), { message: /^ovs_gateway: bridge eth1 is an existing veth link with addresses, not an OVS bridge/ });
  t.throws(() => planUplink(s, args({ bridge: 'eth0' })), { message: /bridge eth0 is an existing .*link with addresses/ });
  t.throws(() => planUplink(s, args({ bridge: 'eth1', extra_bridge: 'br-ex' })), { message: /bridge eth1/ });
  // An existing OVS bridge of that name is fine (a re-run), and so is a new name.
  const moved = probe('probe-static-moved');
  t.true(planUplink(moved, args()).length >= 0);
  t.true(planUplink(s, args({ bridge: 'br-new' })).some(isTxnChange));
});

test('the extra bridge must not be an existing non-OVS link either', (t) => {
  const s = { ...withEth1(probe('probe-static-fresh')), files: { ...probe('probe-static-fresh').files, '/etc/ovnk/extra_bridge': 'eth1\n' } };
  t.throws(() => planUplink(s, args({ extra_bridge: 'lo' })), { message: /extra_bridge lo is the loopback device/ });
  t.throws(() => planUplink(withEth1(probe('probe-static-fresh')), args({ extra_bridge: 'eth1' })), { message: /extra_bridge eth1 is an existing veth link/ });
});

test('an MTU above the uplink\'s maximum, a loopback uplink and a gateway that is the host itself are refused', (t) => {
  const s = probe('probe-static-fresh');
  const small: GatewayState = { ...s, links: s.links.map((l) => (l.name === 'eth0' ? { ...l, maxMtu: 1500 } : l)) };
  t.throws(() => planUplink(small, args({ mtu: 9000 })), { message: /mtu 9000 is above eth0's maximum \(1500\)/ });
  t.true(planUplink(small, args({ mtu: 1500 })).some(isTxnChange));
  t.throws(() => planUplink(s, args({ uplink: 'lo' })), { message: /the uplink lo is the loopback device/ });
  t.throws(() => planUplink(s, args({ gateway: '10.138.160.12' })), { message: /gateway 10\.138\.160\.12 is an address of this host/ });
  t.throws(() => planUplink(s, args({ check_targets: ['127.0.0.1'] })), { message: /check_targets 127\.0\.0\.1 is an address of this host/ });
});

test('a moved host whose default route is gone still finds its uplink (saved env, then the hint) and plans the repair', (t) => {
  const s = probe('probe-static-moved');
  const noRoute: GatewayState = { ...s, routes: s.routes.filter((r) => r.dst !== 'default') };
  t.deepEqual(chooseUplink(noRoute, { bridge: 'br-ex', extraBridge: 'br-ex1' }), { iface: 'eth0', reason: 'recorded in br-ex.env (no default route)' });
  const noEnv: GatewayState = { ...noRoute, files: Object.fromEntries(Object.entries(noRoute.files).filter(([k]) => !k.endsWith('.env'))) };
  t.regex(chooseUplink(noEnv, { bridge: 'br-ex', extraBridge: 'br-ex1' }).reason, /iface_default_hint \(no default route\)/);
  const [repair] = planUplink(noRoute, args()).filter(isTxnChange);
  t.regex(repair!.summary, /^re-apply eth0 into br-ex \(route "default via \S+ metric 48" missing on br-ex\)/);
  // Without a bridge holding that NIC, nothing recorded applies.
  t.regex(chooseUplink({ ...noRoute, bridges: [] }, { bridge: 'br-ex', extraBridge: 'br-ex1' }).reason, /no default route/);
});

test('the probe reads the link kind and maximum MTU (ip -d)', (t) => {
  const out = caseText('probe-static-fresh.txt').replace('"link_type":"ether",', '"link_type":"ether","max_mtu":9000,"linkinfo":{"info_kind":"veth"},');
  const eth0 = parseGatewayProbe(out).links.find((l) => l.name === 'eth0')!;
  t.like(eth0, { maxMtu: 9000, kind: 'veth', linkType: 'ether' });
});

test('a pending transaction is visible: confirmed when the host has the wanted state, else waited for', async (t) => {
  const { parsePending } = await import('../../src/modules/ovs_gateway/parse.js');
  const { isPendingChange } = await import('../../src/modules/ovs_gateway/plan-pending.js');
  // The probe's lines, as the host prints them (garbage and finished ones never reach it).
  const pending = parsePending({ name: 'pending', out: 'mi3k2x0a1b2c waiting 1763930000 30\nbogus line\nmi3k2x9f00aa applying\n', rc: 0 } as never);
  t.deepEqual(pending, [{ id: 'mi3k2x0a1b2c', phase: 'waiting', since: 1763930000, timeoutSec: 30 }, { id: 'mi3k2x9f00aa', phase: 'applying' }]);
  const moved = probe('probe-static-moved');
  t.deepEqual(planUplink(moved, args()).filter((c) => isTxnChange(c) || isPendingChange(c)), [], 'nothing pending, no move to make');
  const waiting = { ...moved, pending: [pending[0]!] };
  const confirm = planUplink(waiting, args()).find(isPendingChange);
  t.truthy(confirm);
  t.regex(confirm!.summary, /^confirm the pending transaction hostwire-configure-ovs-mi3k2x0a1b2c \(an earlier run started it and never confirmed/);
  t.like(confirm!.pending, { id: 'mi3k2x0a1b2c', action: 'confirm', timeoutSec: 30 });
  // Another wanted state (a new MTU), or a transaction still applying: wait for it, nothing else.
  const other = planUplink(waiting, args({ mtu: 1400 }));
  t.is(other.length, 1);
  t.regex(other[0]!.summary, /^wait for the pending transaction hostwire-configure-ovs-mi3k2x0a1b2c \(in its confirm window, not the wanted state\) to end, then plan again/);
  t.regex(planUplink({ ...moved, pending: [pending[1]!] }, args())[0]!.summary, /^wait for .*\(still applying\)/);
});

// Linux allows a device name like `-h0`; on ovs-vsctl's or nmcli's command line it would read as an option. The
// recorded DHCP host (its uplink renamed) and the recorded VLAN on a kernel-made bond (a port renamed).
test('a device the move would name that starts with - (the uplink, a bond port) is refused before any change, naming it', (t) => {
  const renamed = (n: string, from: string, to: string) => parseGatewayProbe(caseText(`${n}.txt`).replaceAll(`"${from}"`, `"${to}"`).replaceAll(` ${from}`, ` ${to}`));
  t.throws(() => planUplink(renamed('probe-dhcp-fresh', 'eth0', '-h0'), args()), { message: /the device "-h0" \(of the uplink "-h0"\) has no plain interface name .*not starting with -\): rename it before the move/ });
  t.throws(() => planUplink(renamed('probe-vlan-kbond-dhcp-fresh', 'eth2', '--help'), args({ datapath_type: 'system', uplink: 'bond0.100' })), { message: /the device "--help" \(of the uplink "bond0\.100"\)/ });
  t.notThrows(() => planUplink(probe('probe-dhcp-fresh'), args()), 'the recorded names as they are');
});
