// The nm backend's ovs-if-br-ex for static IPv6 uplinks (dual-stack, IPv6-only) against NM output recorded
// on a lab host whose NM 1.42 has its OVS plugin (`lab up --nm-ovs`, the uplink a veth eth9): the planned
// commands are the recorded ones, NM stored ipv6.method manual with the addresses, gateway, route metric 48,
// may-fail no and the old profile's DNS, and the activation put the addresses and both default routes on br-ex;
// NM's SLAAC (the address's identifier as token) and NM's DHCPv6 (the client's DUID and IAID) likewise.
import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import type { BridgeEnv, UplinkConfig } from '../../src/modules/ovs_gateway/env.js';
import { nmIaid, planNmProfiles, planNmUp } from '../../src/modules/ovs_gateway/nm-profiles.js';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { props, sections } from '../helpers/nm-backend.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const MAC = 'ae:68:c8:33:7f:75';

// The inputs the recordings were made with (lab host nmv6k23r-1).
function inputs(addrs: string[], routes: string[]): { u: UplinkConfig; e: BridgeEnv } {
  const u: UplinkConfig = { iface: 'eth9', mac: MAC, mtu: 1500, method: 'static', addrs, routes, gateways: [] };
  const e: BridgeEnv = { bridge: 'br-ex', uplink: 'eth9', mac: MAC, mtu: 1500, method: 'static', addrs, routes: routes.map((r) => `${r} metric 48`), metric: 48, datapath: 'netdev', dropIngress: true, check: [], backend: 'nm' };
  return { u, e };
}
const CASES = {
  dualstack: inputs(['10.138.160.11/24', 'fd5c:8a::11/64'], ['default via 10.138.160.1', '-6 default via fd5c:8a::1']),
  v6only: inputs(['fd5c:8a::11/64'], ['-6 default via fd5c:8a::1']),
};

for (const [name, { u, e }] of Object.entries(CASES)) {
  test(`${name}: the planned commands are the recorded ones, NM accepted each and activated the set`, (t) => {
    const commands = caseText(`nm-${name}-br-ex.commands.sh`);
    const recorded = commands.split('\n').filter((l) => l.startsWith('echo "@@cmd"')).map((l) => l.replace(/^echo "@@cmd"; /, '').replace(/ 2>&1; echo "@@rc \$\?"$/, ''));
    const up = planNmUp(u, e, true);
    t.deepEqual(up.slice(0, 5), recorded);
    t.true(commands.includes(`echo "@@up"; ( ${up.slice(5).join('\n')}\n) 2>&1`), 'the activation recorded is the planned one');
    const text = caseText(`nm-${name}-br-ex.txt`);
    t.is(text.split('@@rc 0').length - 1, 6, 'five adds and the activation succeeded');
    const s = sections(text);
    t.true(s.get('active')!.includes('ovs-if-br-ex:ovs-interface:br-ex'));
    t.true(s.get('active')!.includes(MAC), 'br-ex has the NIC MAC');
    t.like(props(s.get('ifbr')!), { 'ipv6.method': 'manual', 'ipv6.addresses': 'fd5c:8a::11/64', 'ipv6.gateway': 'fd5c:8a::1', 'ipv6.route-metric': '48', 'ipv6.may-fail': 'no' });
    t.true(s.get('addr')!.includes('inet6 fd5c:8a::11/64'));
    t.true(s.get('routes')!.includes('default via fd5c:8a::1 proto static metric 48 pref medium'), 'the IPv6 default route at metric 48');
  });
}

test('dual-stack: IPv4 as before (may-fail no, gateway, old DNS), both families\' DNS kept', (t) => {
  const s = sections(caseText('nm-dualstack-br-ex.txt'));
  t.like(props(s.get('ifbr')!), { 'ipv4.method': 'manual', 'ipv4.addresses': '10.138.160.11/24', 'ipv4.gateway': '10.138.160.1', 'ipv4.may-fail': 'no', 'ipv4.dns': '10.138.160.1', 'ipv6.dns': 'fd5c:8a::1' });
  t.true(s.get('routes')!.includes('default via 10.138.160.1 proto static metric 48 '));
  t.deepEqual(s.get('dns')!.filter(Boolean), ['IP4.DNS[1]:10.138.160.1', 'IP6.DNS[1]:fd5c:8a::1']);
});

test('IPv6-only: IPv4 disabled with no DNS of its own (NM refuses DNS on a disabled family), IPv6 must come up', (t) => {
  const up = planNmUp(CASES.v6only.u, CASES.v6only.e, true)[4]!;
  t.regex(up, /ipv4\.method disabled ipv6\.method manual/);
  t.notRegex(up, /ipv4\.may-fail|ipv4\.dns/);
  const s = sections(caseText('nm-v6only-br-ex.txt'));
  t.like(props(s.get('ifbr')!), { 'ipv4.method': 'disabled', 'ipv4.addresses': '', 'ipv6.dns': 'fd5c:8a::53' });
  t.deepEqual(s.get('addr')!.filter(Boolean), ['inet6 fd5c:8a::11/64'], 'no IPv4 on br-ex');
  t.deepEqual(s.get('dns')!.filter(Boolean), ['IP6.DNS[1]:fd5c:8a::53']);
});

test('an IPv4-only uplink plans exactly what it did before IPv6 (no ipv6 gateway, may-fail or DNS)', (t) => {
  const { u, e } = inputs(['10.138.160.11/24'], ['default via 10.138.160.1']);
  const up = planNmUp(u, e, true)[4]!;
  t.regex(up, /ipv6\.method ignore ipv4\.may-fail no ipv4\.route-metric 48 ipv6\.route-metric 48 \$\{DNS:\+ipv4\.dns "\$DNS"\} save no$/);
});

test('the staged script reads both families\' DNS from the old profile the way the recording shows nmcli -g prints them', (t) => {
  const { u, e } = CASES.dualstack;
  const script = planNmProfiles({ ...u, nmConn: '5ed4f629-9fb4-4839-8c05-592ef0c44564' }, e, true).join('\n');
  t.regex(script, /^DNS6=\$\(nmcli -g ipv6\.dns connection show uuid 5ed4f629-9fb4-4839-8c05-592ef0c44564 2>\/dev\/null \| tr -d '\\\\'\)$/m);
  const s = sections(caseText('nm-dns-get.txt'));
  t.is(s.get('raw')![1]!.replaceAll('\\', ''), s.get('stripped')![0], 'tr -d \'\\\\\' undoes nmcli\'s escaping of the colons');
  t.regex(planNmProfiles(u, e, true).join('\n'), /^DNS= DNS6=$/m, 'no old profile: no DNS copied (resolv.conf is kept instead)');
});

test('NM\'s SLAAC: ovs-if-br-ex ipv6.method auto, eui64 with the uplink address\'s identifier as token - the same address and the RA route at metric 48 came back on br-ex', (t) => {
  const nmConn = 'c7dcfd4e-6bff-4a79-a881-79a4992a0413';
  const v6 = { method: 'auto' as const, tokens: ['::fdc9:5451:a436:b840'], raDefault: true };
  const mac = '66:9f:21:b8:6d:bc';
  const u: UplinkConfig = { iface: 'eth9', mac, mtu: 1500, method: 'static', addrs: [], routes: [], gateways: [], nmConn, v6 };
  const e: BridgeEnv = { bridge: 'br-ex', uplink: 'eth9', mac, mtu: 1500, method: 'static', addrs: [], routes: [], metric: 48, datapath: 'netdev', dropIngress: true, check: [], backend: 'nm', v6 };
  const commands = caseText('nm-slaac-br-ex.commands.sh');
  const recorded = commands.split('\n').filter((l) => l.startsWith('echo "@@cmd"')).map((l) => l.replace(/^echo "@@cmd"; /, '').replace(/ 2>&1; echo "@@rc \$\?"$/, ''));
  const up = planNmUp(u, e, true);
  t.deepEqual(up.slice(0, 5), recorded);
  t.true(commands.includes(`echo "@@up"; ( ${up.slice(5).join('\n')}\n) 2>&1`));
  for (const dns of planNmProfiles(u, e, true).filter((l) => l.startsWith('DNS'))) t.true(commands.includes(`${dns}\n`), dns);
  const text = caseText('nm-slaac-br-ex.txt');
  t.is(text.split('@@rc 0').length - 1, 6);
  const s = sections(text);
  t.deepEqual(s.get('before')!.filter(Boolean), ['fd5c:8d::fdc9:5451:a436:b840/64'], 'eth9\'s SLAAC address (NM, stable-privacy)');
  t.like(props(s.get('ifbr')!), { 'ipv4.method': 'disabled', 'ipv6.method': 'auto', 'ipv6.addr-gen-mode': 'eui64', 'ipv6.token': '::fdc9:5451:a436:b840', 'ipv6.route-metric': '48', 'ipv6.may-fail': 'no', 'ipv6.dns': 'fd5c:8d::53' });
  t.deepEqual(s.get('addr')!.filter(Boolean), ['inet6 fd5c:8d::fdc9:5451:a436:b840/64'], 'the same address on br-ex');
  t.regex(s.get('routes')!.join('\n'), /^default via fe80::\S+ proto ra metric 48 /m);
  t.deepEqual(s.get('dns')!.filter(Boolean), ['IP6.DNS[1]:fd5c:8d::53']);
});

test('the uplink\'s other IPv4 routes go into ovs-if-br-ex\'s ipv4.routes with their metric (ip\'s none = 0): recorded on br-ex as they were', (t) => {
  const mac = 'e2:c6:a4:2a:68:d0';
  const routes = ['default via 10.138.160.1', '10.99.0.0/16 via 10.138.160.5 metric 100', '10.98.0.0/16'];
  const u: UplinkConfig = { iface: 'eth9', mac, mtu: 1500, method: 'static', addrs: ['10.138.160.11/24'], routes, gateways: ['10.138.160.1'] };
  const e: BridgeEnv = { bridge: 'br-ex', uplink: 'eth9', mac, mtu: 1500, method: 'static', addrs: u.addrs, routes: ['default via 10.138.160.1 metric 48', ...routes.slice(1)], metric: 48, datapath: 'netdev', dropIngress: true, check: [], backend: 'nm' };
  const commands = caseText('nm-routes-br-ex.commands.sh');
  const recorded = commands.split('\n').filter((l) => l.startsWith('echo "@@cmd"')).map((l) => l.replace(/^echo "@@cmd"; /, '').replace(/ 2>&1; echo "@@rc \$\?"$/, ''));
  t.deepEqual(planNmUp(u, e, true).slice(0, 5), recorded);
  t.regex(recorded[4]!, /ipv4\.gateway 10\.138\.160\.1 ipv4\.routes '10\.99\.0\.0\/16 10\.138\.160\.5 100, 10\.98\.0\.0\/16 0' ipv6\.method ignore/);
  const text = caseText('nm-routes-br-ex.txt');
  t.is(text.split('@@rc 0').length - 1, 6);
  const s = sections(text);
  t.deepEqual(s.get('nmroutes')!.filter(Boolean), ['10.99.0.0/16 10.138.160.5 100, 10.98.0.0/16 0']);
  const all = s.get('allroutes')!.map((l) => l.trim());
  t.true(all.includes('10.99.0.0/16 via 10.138.160.5 proto static metric 100'));
  t.true(all.includes('10.98.0.0/16 proto static scope link'), 'metric 0, as ip route add gave it');
  t.true(all.includes('default via 10.138.160.1 proto static metric 48'));
});

/**
 * A move planned from a probe recorded on an nspawn --nm-ovs host (NM 1.42.4, dnsmasq on a second host sending
 * RAs and serving DHCPv6) against what that host recorded when the planned commands ran: the five profiles
 * and the activation are the planned ones, each succeeded. Returns the env, the ovs-if-br-ex command, the
 * recording's sections and dnsmasq's leases (`iaid address host duid`, expiry dropped) per section.
 */
function recordedNmMove(t: ExecutionContext, probeName: string, caseName: string) {
  const s = parseGatewayProbe(caseText(`${probeName}.txt`));
  const move = planUplink(s, ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', backend: 'nm' })).filter(isTxnChange)[0]!;
  const script = move.txn.nm!.split('\n');
  const up = script.slice(script.indexOf('up)') + 1, script.indexOf(';;'));
  const commands = caseText(`${caseName}.commands.sh`);
  const recorded = commands.split('\n').filter((l) => l.startsWith('echo "@@cmd"')).map((l) => l.replace(/^echo "@@cmd"; /, '').replace(/ 2>&1; echo "@@rc \$\?"$/, ''));
  t.deepEqual(up.slice(3, 8), recorded, 'the planned profiles are the recorded ones');
  t.true(commands.includes(`echo "@@up"; ( ${up.slice(8).join('\n')}\n) 2>&1`), 'the activation recorded is the planned one');
  for (const dns of up.slice(1, 3)) t.true(commands.includes(`${dns}\n`), dns);
  const text = caseText(`${caseName}.txt`);
  t.is(text.split('@@rc 0').length - 1, 6, 'five adds and the activation succeeded');
  const r = sections(text);
  const lease = (k: string) => r.get(k)!.filter((l) => /^\d+ /.test(l)).map((l) => l.split(' ').slice(1).join(' '));
  return { env: parseEnvText(move.txn.env!), ifBrEx: recorded[4]!, r, lease };
}

test('NM\'s DHCPv6 (RAs say managed): ovs-if-br-ex ipv6.method auto with the uplink client\'s DUID and IAID - the same lease came back on br-ex; without the IAID NM took another', (t) => {
  const { env, ifBrEx, r, lease } = recordedNmMove(t, 'probe-dhcp6-nmovs-fresh', 'nm-dhcp6-br-ex');
  t.deepEqual([env.METHOD6, env.TOKENS6, env.DUID6, env.IAID6], ['auto', '', '00:04:43:30:6d:ed:49:d5:fa:36:4c:4a:52:10:9c:9f:60:7f', String(0x2b506735)]);
  t.regex(ifBrEx, / ipv6\.method auto ipv6\.dhcp-duid 00:04:43:30:6d:ed:49:d5:fa:36:4c:4a:52:10:9c:9f:60:7f ipv6\.dhcp-iaid 2b:50:67:35 ipv4\.may-fail no ipv6\.may-fail no /);
  t.like(props(r.get('ifbr')!), { 'ipv6.method': 'auto', 'ipv6.dhcp-duid': env.DUID6, 'ipv6.dhcp-iaid': '2b:50:67:35', 'ipv6.route-metric': '48', 'ipv6.may-fail': 'no', 'ipv4.addresses': '10.142.107.11/24' });
  t.deepEqual(r.get('addr')!.filter(Boolean), ['inet 10.142.107.11/24', 'inet6 fd5c:62::10c/128'], 'eth0\'s lease (and IPv4) on br-ex');
  t.is(r.get('before')![0], 'fd5c:62::10c/128');
  t.regex(r.get('routes')!.join('\n'), /^default via fe80::\S+ proto ra metric 48 /m, 'the RA\'s default route at metric 48');
  t.true(r.get('dhcp6')!.includes('DHCP6.OPTION[3]:iaid = 2b:50:67:35'), 'br-ex\'s client sent eth0\'s IAID');
  t.deepEqual(r.get('eth0')!.filter(Boolean), []);
  // dnsmasq's lease file: the same lease, renewed.
  t.deepEqual(lease('lease-after'), lease('lease-before'));
  t.deepEqual(lease('lease-before'), [`726689589 fd5c:62::10c nmv624r-1 ${env.DUID6}`]);
  // The control: ipv6.dhcp-iaid emptied, NM hashed br-ex's name into another IAID and got another address.
  t.deepEqual(r.get('control-no-iaid')!.filter(Boolean), ['fd5c:62::1eb/128', 'DHCP6.OPTION[3]:iaid = 3e:a6:cf:94']);
  t.is(lease('control-lease').length, 2);
});

test('nmIaid prints an IAID as NM does (four colon-separated bytes, most significant first)', (t) => {
  t.is(nmIaid(726689589), '2b:50:67:35');
  t.is(nmIaid(1), '00:00:00:01');
  t.is(nmIaid(0xffffffff), 'ff:ff:ff:ff');
});

test('NM\'s SLAAC and DHCPv6 together (RAs managed, prefix autonomous): ovs-if-br-ex carries the token and the DUID/IAID - both addresses came back on br-ex', (t) => {
  const { env, ifBrEx, r, lease } = recordedNmMove(t, 'probe-mixed6-nmovs-fresh', 'nm-mixed-br-ex');
  t.deepEqual([env.METHOD6, env.TOKENS6, env.IAID6], ['auto', '::178d:f3db:7da1:648f', String(0x2b506735)]);
  t.regex(ifBrEx, / ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::178d:f3db:7da1:648f ipv6\.dhcp-duid 00:04:fc:59:\S+ ipv6\.dhcp-iaid 2b:50:67:35 /);
  const before = ['fd5c:64::178d:f3db:7da1:648f/64', 'fd5c:64::182/128'];
  t.deepEqual(r.get('before')!.slice(0, 2), before, 'eth0: NM\'s SLAAC address and its DHCPv6 lease');
  t.deepEqual(r.get('addr')!.filter(Boolean), before, 'both on br-ex');
  t.regex(r.get('routes')!.join('\n'), /^default via fe80::\S+ proto ra metric 48 /m);
  t.deepEqual(lease('lease-after'), lease('lease-before'), 'the server\'s one lease unchanged');
  t.deepEqual(r.get('eth0')!.filter(Boolean), []);
});
