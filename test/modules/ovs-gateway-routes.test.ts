// The uplink's static routes (not only its default ones) move onto br-ex with it, both families, on both backends:
// which routes of the device move (uplink-routes.ts), how each is checked before it reaches a command line (the
// values come from the host), the words the ovs backend's script and NetworkManager's ipv4/ipv6.routes get.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { checkRoute, movableRoutes, nmRoute, parseRouteWords, routeArgs, routeSpec } from '../../src/modules/ovs_gateway/uplink-routes.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseRoutes, type Route } from '../../src/modules/ovs_gateway/parse.js';

const section = (out: string) => ({ name: 'r', rc: 0, out });

// `ip -j -6 route show table main` on a lab host's eth0 (NM static profile with ipv6.routes, a kernel SLAAC prefix
// beside it), in the form the probe reads it.
const V6 = parseRoutes(section(JSON.stringify([
  { dst: 'fd5c:8b::/64', dev: 'eth0', protocol: 'kernel', metric: 100, flags: [], pref: 'medium' },
  { dst: 'fd5c:99::/48', gateway: 'fd5c:8b::1', dev: 'eth0', protocol: 'static', metric: 300, flags: [], pref: 'medium' },
  { dst: 'fd5c:77::/64', dev: 'eth0', protocol: 'ra', metric: 1024, expires: 599, flags: [], pref: 'medium' },
  { dst: 'fd5c:62::10c', dev: 'eth0', protocol: 'dhcp', metric: 100, flags: [], pref: 'medium' },
  { dst: 'fe80::/64', dev: 'eth0', protocol: 'kernel', metric: 1024, flags: [], pref: 'medium' },
  { type: 'multicast', dst: 'ff00::/8', dev: 'eth0', table: 'local', protocol: 'kernel', metric: 256, flags: [], pref: 'medium' },
  { dst: 'fd5c:55::/48', gateway: 'fe80::1', dev: 'eth0', metric: 1024, flags: ['onlink'], pref: 'medium' },
  { dst: 'default', gateway: 'fd5c:8b::1', dev: 'eth0', protocol: 'static', metric: 100, flags: [], pref: 'medium' },
  { dst: 'fd5c:44::/48', gateway: 'fd5c:8b::1', dev: 'eth1', metric: 1024, flags: [], pref: 'medium' },
])), 6);
const V4 = parseRoutes(section(JSON.stringify([
  { dst: 'default', gateway: '10.1.2.1', dev: 'eth0', protocol: 'static', metric: 100, flags: [] },
  { dst: '10.98.0.0/16', dev: 'eth0', scope: 'link', flags: [] },
  { dst: '10.99.0.0/16', gateway: '10.1.2.1', dev: 'eth0', metric: 200, flags: [] },
  { dst: '10.1.2.0/24', dev: 'eth0', protocol: 'kernel', scope: 'link', prefsrc: '10.1.2.11', metric: 100, flags: [] },
])), 4);

test('the routes that move: default and static ones of both families; not the kernel\'s, RAs\', DHCPv6\'s, link-local or other devices\'', (t) => {
  t.deepEqual(movableRoutes([...V4, ...V6], 'eth0').map((r) => routeArgs(r)), [
    'default via 10.1.2.1 metric 100', '10.98.0.0/16', '10.99.0.0/16 via 10.1.2.1 metric 200',
    'fd5c:99::/48 via fd5c:8b::1 metric 300', 'fd5c:55::/48 via fe80::1 metric 1024 onlink', '-6 default via fd5c:8b::1 metric 100',
  ]);
});

test('NetworkManager\'s route entries keep gateway and metric (ip shows no IPv4 metric 0) and onlink', (t) => {
  t.deepEqual(movableRoutes([...V4, ...V6], 'eth0').map((r) => nmRoute(routeSpec(r))).slice(1, 5),
    ['10.98.0.0/16 0', '10.99.0.0/16 10.1.2.1 200', 'fd5c:99::/48 fd5c:8b::1 300', 'fd5c:55::/48 fe80::1 1024 onlink=true']);
});

test('a route from the host that is not a plain prefix, gateway and integer metric is refused, never put on a command line', (t) => {
  const hostile: Partial<Route>[] = [
    { dst: '10.0.0.0/8;reboot' }, { dst: '$(id)' }, { dst: '10.0.0.0/33' }, { dst: 'fd00::/129' }, { dst: '10.0.0.0/8', gateway: 'fd00::1' },
    { dst: '10.0.0.0/8', gateway: '10.0.0.1 dev lo' }, { dst: '10.0.0.0/8', metric: -1 }, { dst: '10.0.0.0/8', metric: 1.5 },
  ];
  for (const h of hostile) t.throws(() => routeArgs({ family: 4, dev: 'eth0', dst: '', ...h } as Route), { message: /the uplink's route/ }, JSON.stringify(h));
  t.throws(() => checkRoute({ family: 6, dst: 'fd00::/48', via: '10.0.0.1' }, 'x'), { message: /not an IPv6 address/ });
});

test('routes read back from a saved .prev are checked again; words routeArgs writes parse back to themselves', (t) => {
  for (const w of ['default via 10.1.2.1 metric 48', '-6 default via fd5c:8b::1 metric 1024', '10.98.0.0/16', 'fd5c:55::/48 via fe80::1 metric 1024 onlink', '10.1.2.3']) {
    t.is(routeArgs({ ...parseRouteWords(w), dev: 'eth0', gateway: parseRouteWords(w).via, flags: parseRouteWords(w).onlink ? ['onlink'] : [] } as Route), w);
  }
  const prev = (routes: string) => `IFACE='eth0'\nMAC='02:00:00:00:00:01'\nMTU='1500'\nMETHOD='static'\nADDRS='10.1.2.11/24'\nROUTES='${routes}'\n`;
  t.deepEqual(parsePrev(prev('default via 10.1.2.1 metric 100;fd5c:99::/48 via fd5c:8b::1 metric 300'))!.routes, ['default via 10.1.2.1 metric 100', 'fd5c:99::/48 via fd5c:8b::1 metric 300']);
  t.throws(() => parsePrev(prev('10.99.0.0/16 via 10.1.2.1 table 7')), { message: /unexpected word "table"/ });
  t.throws(() => parsePrev(prev('10.99.0.0/16 via `reboot`')), { message: /not an IPv4 address/ });
});

// Probes recorded on lab hosts (HW_RECORD_DIR): test/roles-lab/uplink-dualstack.test.ts (ovs backend, routes added with
// ip: 10.99.0.0/16 via the gateway at metric 200, 10.98.0.0/16 on the link, fd5c:99::/48 via the IPv6 gateway at
// metric 300) and test/vm/nm-uplink-ipv6.test.ts (nspawn --nm-ovs: the profile's ipv4.routes/ipv6.routes, proto static).
const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const plan = (n: string, backend: 'ovs' | 'nm') => planUplink(probe(n), ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', backend })).filter(isTxnChange) as TxnChange[];
const GW = '10.179.82.1';

test('recorded ovs-backend host: the static routes of both families move at their own metrics; the rollback has them as they were', (t) => {
  const [move] = plan('probe-dualstack-routes-fresh', 'ovs');
  t.deepEqual(parseEnvText(move!.txn.env!).ROUTES!.split(';'),
    [`default via ${GW} metric 48`, '10.98.0.0/16', `10.99.0.0/16 via ${GW} metric 200`, 'fd5c:99::/48 via fd5c:8a::1 metric 300', '-6 default via fd5c:8a::1 metric 48']);
  t.deepEqual(parsePrev(move!.txn.prev!)!.routes,
    [`default via ${GW}`, '10.98.0.0/16', `10.99.0.0/16 via ${GW} metric 200`, 'fd5c:99::/48 via fd5c:8a::1 metric 300', '-6 default via fd5c:8a::1 metric 1024']);
  // The same host under the nm backend: the routes as ovs-if-br-ex's ipv4.routes/ipv6.routes.
  const [nm] = plan('probe-dualstack-routes-fresh', 'nm');
  t.regex(nm!.txn.nm!, new RegExp(` ipv4\\.routes '10\\.98\\.0\\.0/16 0, 10\\.99\\.0\\.0/16 ${GW.replaceAll('.', '\\.')} 200' .* ipv6\\.routes 'fd5c:99::/48 fd5c:8a::1 300' `));
});

test('recorded ovs-backend host, moved: converged (each route on br-ex with its gateway and metric); a lost static route is drift', (t) => {
  t.deepEqual(plan('probe-dualstack-routes-moved', 'ovs'), []);
  const [repair] = plan('probe-dualstack-lost-v6-route', 'ovs');
  t.is(repair?.summary, 're-apply eth0 into br-ex (route "fd5c:99::/48 via fd5c:8a::1 metric 300" missing on br-ex)');
});

test('recorded nm host (NM profile routes, NM\'s prefix routes proto kernel): the profile\'s routes move, moved hosts are converged', (t) => {
  for (const [kind, gw6, v4] of [['dual', 'fd5c:8b::1', ['10.99.0.0/16 10.137.26.1 200']], ['v6only', 'fd5c:8c::1', []]] as const) {
    const [move] = plan(`probe-nm-routes-${kind}-fresh`, 'nm');
    const routes = parseEnvText(move!.txn.env!).ROUTES!.split(';');
    t.deepEqual(routes.filter((r) => !r.includes('default')), [...(v4.length ? ['10.99.0.0/16 via 10.137.26.1 metric 200'] : []), `fd5c:99::/48 via ${gw6} metric 300`]);
    t.is(/ipv4\.routes '([^']*)'/.exec(move!.txn.nm!)?.[1], v4[0]);
    t.is(/ipv6\.routes '([^']*)'/.exec(move!.txn.nm!)?.[1], `fd5c:99::/48 ${gw6} 300`);
    t.deepEqual(plan(`probe-nm-routes-${kind}-moved`, 'nm'), [], `${kind}: moved and converged`);
  }
});
