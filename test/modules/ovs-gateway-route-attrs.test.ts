// The uplink's routes move with their preferred source (src) and per-route mtu/advmss, both families, both
// backends (uplink-routes.ts); every value is checked before it reaches a command line, a saved .prev again;
// a default route's too (at the bridge's metric); what is not carried (a locked metric, other metrics, a realm) stays refused,
// each route named (uplink-unmovable.ts). The probe reads the main table out of the `-all` sections
// (parse.ts), a recording made before that out of its own. Recorded on nspawn lab hosts (Debian 12,
// iproute2 6.1, kernel 6.18) with the module's own probe after:
//   probe-route-attrs-fresh: ip route add 10.20.0.0/16 via GW dev eth0 src 10.106.211.12 metric 200 mtu 1400 advmss 1360;
//     ip route add 10.24.0.0/16 dev eth0 mtu 1300; ip -6 route add fd5c:99::/48 via fd5c:8a::1 dev eth0 metric 300
//     src fd5c:8a::12 mtu 1400 advmss 1340 (and fd5c:8a::12/64 with an IPv6 default route via fd5c:8a::1)
//   probe-route-attrs-mixed-fresh: the same 10.20 and fd5c:99 routes, and default via GW src 10.106.211.11,
//     10.21.0.0/16 mtu lock 1300, 10.22.0.0/16 realm 5 rtt 10 advmss lock 1300, 10.23.0.0/16 window 1000,
//     fd5c:95::/48 mtu lock 1400
//   probe-route-attrs-{ovs,nm}-{fresh,moved,drift}: test/roles-lab/uplink-route-attrs.test.ts (HW_RECORD_DIR; nm: --nm-ovs):
//     10.20.0.0/16 src+mtu+advmss and fd5c:99::/48 src+mtu+advmss on eth0, moved onto br-ex, then the IPv4 one
//     replaced without its attributes and the IPv6 one deleted
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe, parseLockedRoutes, parseRoutes, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { readSections } from '../../src/probe/sections.js';
import { checkRoute, nmRoute, parseRouteWords, routeWords } from '../../src/modules/ovs_gateway/uplink-routes.js';
import { unmovable } from '../../src/modules/ovs_gateway/uplink-unmovable.js';

const text = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8');
const probe = (n: string) => parseGatewayProbe(text(n));
const planOf = (s: GatewayState, backend: 'ovs' | 'nm') =>
  planUplink(s, ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', backend })).filter(isTxnChange) as TxnChange[];
const GW = '10.106.211.1';

test('recorded host: src, mtu and advmss of both families move in the ovs backend\'s ROUTES, the .prev keeps them as they were', (t) => {
  const [move] = planOf(probe('probe-route-attrs-fresh'), 'ovs');
  t.deepEqual(parseEnvText(move!.txn.env!).ROUTES!.split(';'), [
    `default via ${GW} metric 48`, `10.20.0.0/16 via ${GW} metric 200 src 10.106.211.12 mtu 1400 advmss 1360`, '10.24.0.0/16 mtu 1300',
    'fd5c:99::/48 via fd5c:8a::1 metric 300 src fd5c:8a::12 mtu 1400 advmss 1340', '-6 default via fd5c:8a::1 metric 48']);
  t.deepEqual(parsePrev(move!.txn.prev!)!.routes, [
    `default via ${GW}`, `10.20.0.0/16 via ${GW} metric 200 src 10.106.211.12 mtu 1400 advmss 1360`, '10.24.0.0/16 mtu 1300',
    'fd5c:99::/48 via fd5c:8a::1 metric 300 src fd5c:8a::12 mtu 1400 advmss 1340', '-6 default via fd5c:8a::1 metric 1024']);
});

test('recorded host, nm backend: the attributes as NetworkManager route attributes (src=, mtu=, advmss=)', (t) => {
  const [move] = planOf(probe('probe-route-attrs-fresh'), 'nm');
  t.is(/ipv4\.routes '([^']*)'/.exec(move!.txn.nm!)?.[1], `10.20.0.0/16 ${GW} 200 src=10.106.211.12 mtu=1400 advmss=1360, 10.24.0.0/16 0 mtu=1300`);
  t.is(/ipv6\.routes '([^']*)'/.exec(move!.txn.nm!)?.[1], 'fd5c:99::/48 fd5c:8a::1 300 src=fd5c:8a::12 mtu=1400 advmss=1340');
});

test('recorded host: what is still not carried is refused, each route named; the carried ones (a default route\'s src too) are no reason', (t) => {
  t.deepEqual(unmovable(probe('probe-route-attrs-mixed-fresh'), 'eth0', false), [
    'the route "10.21.0.0/16" (IPv4) on "eth0" has "mtu lock"',
    'the route "10.22.0.0/16" (IPv4) on "eth0" has "flow", "metric rtt", "advmss lock"',
    'the route "10.23.0.0/16" (IPv4) on "eth0" has "metric window"',
    'the route "fd5c:95::/48" (IPv6) on "eth0" has "mtu lock"',
  ]);
  t.deepEqual(unmovable(probe('probe-route-attrs-fresh'), 'eth0', false), []);
  const e = t.throws(() => planOf(probe('probe-route-attrs-mixed-fresh'), 'nm'));
  t.regex(e!.message, /The move carries only main-table routes with a gateway, metric, onlink, src, mtu and advmss \(default routes too, at the bridge's metric\)/);
});

test('the locked metrics out of the probe\'s text: IPv6 lines marked -6, the metric before each lock', (t) => {
  const s = readSections(text('probe-route-attrs-mixed-fresh'));
  t.deepEqual(parseLockedRoutes(s.get('route-lock')), [
    { family: 4, dst: '10.21.0.0/16', dev: 'eth0', locked: ['mtu'] },
    { family: 4, dst: '10.22.0.0/16', dev: 'eth0', locked: ['advmss'] },
    { family: 6, dst: 'fd5c:95::/48', dev: 'eth0', locked: ['mtu'] },
  ]);
  t.deepEqual(probe('probe-dualstack-routes-fresh').lockedRoutes, undefined, 'a recording made before the lock was probed: none known');
});

test('the main table read out of the -all sections is the one `ip -j route show table main` printed (a recording with both)', (t) => {
  const s = readSections(text('probe-unmovable-routes-fresh'));
  const main = [...parseRoutes(s.get('route4'), 4), ...parseRoutes(s.get('route6'), 6)];
  t.true(main.length >= 8, `${main.length} main-table routes`);
  t.deepEqual(probe('probe-unmovable-routes-fresh').routes, main);
  // Without -all sections (recordings older than them) the main sections are read as before.
  t.true(probe('probe-dualstack-routes-fresh').routes.some((r) => r.dst === 'fd5c:99::/48' && r.metric === 300));
});

test('every value is checked before it reaches a command line; words written parse back to themselves; a saved .prev is checked again', (t) => {
  for (const w of ['10.20.0.0/16 via 10.1.2.1 metric 200 src 10.1.2.11 mtu 1400 advmss 1360', '-6 default via fd5c::1 metric 48',
    'fd5c:99::/48 via fe80::1 metric 300 onlink src fd5c::12 mtu 1280', '10.24.0.0/16 advmss 1']) {
    t.is(routeWords(parseRouteWords(w)), w);
  }
  const bad: [string, RegExp][] = [
    ['10.0.0.0/8 src fd00::1', /src "fd00::1" is not an IPv4 address/], ['fd00::/8 src 10.0.0.1', /not an IPv6 address/],
    ['10.0.0.0/8 src $(reboot)', /src "\$\(reboot\)" is not an IPv4 address/], ['10.0.0.0/8 mtu 67', /mtu "67" is not an integer from 68 to 65535/],
    ['10.0.0.0/8 mtu 70000', /mtu "70000"/], ['10.0.0.0/8 advmss 0', /advmss "0" is not an integer from 1 to 65535/],
    ['10.0.0.0/8 mtu 1400 mtu 1300', /unexpected word "mtu"/], ['10.0.0.0/8 mtu lock 1400', /unexpected word "mtu"/],
    ['10.0.0.0/8 mtu -1', /unexpected word "mtu"/], ['10.0.0.0/8 src', /unexpected word "src"/],
  ];
  for (const [w, why] of bad) t.throws(() => parseRouteWords(w), { message: why }, w);
  t.throws(() => checkRoute({ family: 4, dst: '10.0.0.0/8', mtu: 1400.5 }, 'x'), { message: /mtu "1400.5"/ });
  const prev = (routes: string) => `IFACE='eth0'\nMAC='02:00:00:00:00:01'\nMTU='1500'\nMETHOD='static'\nADDRS='10.1.2.11/24'\nROUTES='${routes}'\n`;
  t.deepEqual(parsePrev(prev('10.20.0.0/16 via 10.1.2.1 src 10.1.2.11 mtu 1400'))!.routes, ['10.20.0.0/16 via 10.1.2.1 src 10.1.2.11 mtu 1400']);
  t.throws(() => parsePrev(prev('10.20.0.0/16 via 10.1.2.1 src 10.1.2.11;reboot mtu 1400')), { message: /the uplink's route/ });
  t.throws(() => parsePrev(prev('10.20.0.0/16 mtu 99999')), { message: /mtu "99999"/ });
  t.is(nmRoute(parseRouteWords('fd5c:99::/48 via fd5c::1 metric 300 onlink src fd5c::12 mtu 1400 advmss 1340')), 'fd5c:99::/48 fd5c::1 300 onlink=true src=fd5c::12 mtu=1400 advmss=1340');
});

test('a route probed with a value out of range is refused naming it, before any change', (t) => {
  const s = probe('probe-route-attrs-fresh');
  const hostile: GatewayState = { ...s, routes: s.routes.map((r) => (r.dst === '10.24.0.0/16' ? { ...r, metrics: [{ mtu: 20 }] } : r)) };
  t.throws(() => planOf(hostile, 'ovs'), { message: /the uplink's route "10\.24\.0\.0\/16 dev eth0": mtu "20" is not an integer from 68 to 65535/ });
  // A metric named after an Object property is no carried one.
  const proto: GatewayState = { ...s, routes: s.routes.map((r) => (r.dst === '10.24.0.0/16' ? { ...r, metrics: [{ constructor: 1, toString: 2 }] } : r)) };
  t.deepEqual(unmovable(proto, 'eth0', false), ['the route "10.24.0.0/16" (IPv4) on "eth0" has "metric constructor", "metric toString"']);
  const src6: GatewayState = { ...s, routes: s.routes.map((r) => (r.dst === 'fd5c:99::/48' ? { ...r, prefsrc: '10.106.211.12' } : r)) };
  t.throws(() => planOf(src6, 'nm'), { message: /src "10\.106\.211\.12" is not an IPv6 address/ });
});

test('recorded lab host (ovs backend): moved is converged; a route that lost its attributes or went is drift, both named', (t) => {
  t.deepEqual(planOf(probe('probe-route-attrs-ovs-moved'), 'ovs'), []);
  const [repair] = planOf(probe('probe-route-attrs-ovs-drift'), 'ovs');
  t.is(repair?.summary, 're-apply eth0 into br-ex (route "10.20.0.0/16 via 10.196.52.1 metric 200 src 10.196.52.11 mtu 1400 advmss 1360" on br-ex differs '
    + '(now: src none, mtu none, advmss none), route "fd5c:99::/48 via fd5c:8a::1 metric 300 src fd5c:8a::11 mtu 1400 advmss 1340" missing on br-ex)');
  const [move] = planOf(probe('probe-route-attrs-ovs-fresh'), 'ovs');
  t.deepEqual(parseEnvText(move!.txn.env!).ROUTES!.split(';').filter((r) => !r.includes('default')),
    ['10.20.0.0/16 via 10.196.52.1 metric 200 src 10.196.52.11 mtu 1400 advmss 1360', 'fd5c:99::/48 via fd5c:8a::1 metric 300 src fd5c:8a::11 mtu 1400 advmss 1340']);
});

test('recorded lab host (nm backend, NM\'s routes proto static on br-ex): moved is converged, the drift named, the profile\'s routes with their attributes', (t) => {
  const [move] = planOf(probe('probe-route-attrs-nm-fresh'), 'nm');
  t.is(/ipv4\.routes '([^']*)'/.exec(move!.txn.nm!)?.[1], '10.20.0.0/16 10.167.102.1 200 src=10.167.102.11 mtu=1400 advmss=1360');
  t.is(/ipv6\.routes '([^']*)'/.exec(move!.txn.nm!)?.[1], 'fd5c:99::/48 fd5c:8a::1 300 src=fd5c:8a::11 mtu=1400 advmss=1340');
  t.deepEqual(planOf(probe('probe-route-attrs-nm-moved'), 'nm'), []);
  const [repair] = planOf(probe('probe-route-attrs-nm-drift'), 'nm');
  t.regex(repair?.summary ?? '', /^re-apply eth0 into br-ex \(route "10\.20\.0\.0\/16 via 10\.167\.102\.1 metric 200 src 10\.167\.102\.11 mtu 1400 advmss 1360" on br-ex differs \(now: src none, mtu none, advmss none\), route "fd5c:99::\/48 [^"]+" missing on br-ex\)$/);
});
