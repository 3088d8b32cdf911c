// What uses the uplink but would not move with it is refused before any change, on both backends
// (uplink-unmovable.ts): multipath routes through it, its routes in other tables, routes with a realm, and
// policy rules naming it (a preferred source and mtu/advmss move now: ovs-gateway-route-attrs.test.ts). Recorded on an nspawn lab host (Debian 12,
// iproute2 6.1) with the module's own probe after:
//   ip route add 10.99.0.0/16 via GW dev eth0 metric 200 src 10.165.86.11 mtu 1400 advmss 1360
//   ip route add 10.97.0.0/16 nexthop via GW dev eth0 weight 1 nexthop via 10.165.86.12 dev eth0 weight 2
//   ip route add 10.96.0.0/16 via GW dev eth0 table 100; ip route add 10.95.0.0/16 via GW dev eth0 realm 5
//   ip rule add iif eth0 table 100 pref 1000; ip rule add oif eth0 table 100 pref 1001
//   ip -6 route add fd5c:98::/48 via fd5c:8b::1 dev eth0 mtu 1400
//   ip -6 route add fd5c:97::/48 nexthop via fd5c:8b::1 dev eth0 nexthop via fd5c:8b::2 dev eth0
//   ip -6 route add fd5c:96::/48 via fd5c:8b::1 dev eth0 table 100; ip -6 rule add iif eth0 table 100 pref 1000
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseGatewayProbe, type GatewayState, type Route } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { parseEnvText } from '../../src/modules/ovs_gateway/env.js';
import { unmovable } from '../../src/modules/ovs_gateway/uplink-unmovable.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const plan = (s: GatewayState, backend: 'ovs' | 'nm') => planUplink(s, ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', backend }));
const REC = 'probe-unmovable-routes-fresh';

test('recorded host: each route and rule that would not move is named, nothing else', (t) => {
  const s = probe(REC);
  t.deepEqual(unmovable(s, 'eth0', false), [
    'the multipath route "10.97.0.0/16" (IPv4) has a next hop through "eth0"',
    'the multipath route "fd5c:97::/48" (IPv6) has a next hop through "eth0"',
    'the route "10.96.0.0/16" (table "100") (IPv4) through "eth0" is not in the main table',
    'the route "fd5c:96::/48" (table "100") (IPv6) through "eth0" is not in the main table',
    'the route "10.95.0.0/16" (IPv4) on "eth0" has "flow"',
    'the IPv4 policy rule of priority "1000" names "eth0" as iif',
    'the IPv4 policy rule of priority "1001" names "eth0" as oif',
    'the IPv6 policy rule of priority "1000" names "eth0" as iif',
  ]);
  t.deepEqual(unmovable(s, 'lo', false), [], 'the loopback\'s local-table routes and the default rules are no reason');
});

test('recorded host: both backends refuse the move before planning any change, naming the first five and counting the rest', (t) => {
  for (const backend of ['ovs', 'nm'] as const) {
    const e = t.throws(() => plan(probe(REC), backend));
    t.regex(e!.message, /^ovs_gateway: the uplink "eth0" cannot move to the bridge as it is: the multipath route "10\.97\.0\.0\/16" .*; and 3 more\. The move carries only main-table routes with a gateway, metric, onlink, src, mtu and advmss/, backend);
  }
});

test('the same host without them moves (the refusal is theirs), its plain default route carried', (t) => {
  const s = probe(REC);
  const plain = (r: Route) => r.dev === 'eth0' && !['10.95.0.0/16', '10.99.0.0/16', 'fd5c:98::/48'].includes(r.dst);
  // The route with a source, mtu and advmss moves with them; the realm's is the one left out.
  const carried: GatewayState = { ...s, routes: s.routes.filter((r) => r.dev === 'eth0' && r.dst !== '10.95.0.0/16'), otherRoutes: [], rules: [] };
  t.deepEqual(parseEnvText((plan(carried, 'ovs').filter(isTxnChange) as TxnChange[])[0]!.txn.env!).ROUTES!.split(';').filter((r) => /10\.99|fd5c:98/.test(r)),
    ['10.99.0.0/16 via 10.165.86.1 metric 200 src 10.165.86.11 mtu 1400 advmss 1360', 'fd5c:98::/48 via fd5c:8b::1 metric 1024 mtu 1400']);
  const clean: GatewayState = { ...s, routes: s.routes.filter(plain), otherRoutes: [], rules: (s.rules ?? []).filter((r) => !r.iif && !r.oif) };
  const [move] = plan(clean, 'ovs').filter(isTxnChange) as TxnChange[];
  t.deepEqual(parseEnvText(move!.txn.env!).ROUTES!.split(';'), ['default via 10.165.86.1 metric 48']);
});

test('a recording made before the other tables and rules were probed plans as before', (t) => {
  const s = probe('probe-dualstack-routes-fresh');
  t.deepEqual([s.otherRoutes, s.rules], [[], []]);
  t.true(plan(s, 'ovs').some(isTxnChange));
});

test('host values in a refusal are quoted, escaped and cut short; a DHCP lease\'s own route is no reason, whatever it has', (t) => {
  const s = probe(REC);
  const long = `10.0.0.0/8\u0007${'x'.repeat(500)}`;
  const hostile: GatewayState = { ...s, routes: [{ family: 4, dst: long, nexthops: [{ dev: 'eth0' }] }],
    otherRoutes: [{ family: 4, dst: '10.1.0.0/16', dev: 'eth0', table: '$(reboot)'.repeat(10) }],
    rules: [{ family: 4, priority: '1;id' as unknown as number, oif: 'eth0' }] };
  const why = unmovable(hostile, 'eth0', false);
  t.is(why.length, 3);
  t.true(why.every((w) => w.length < 160 && !/[\u0000-\u001f]/.test(w)), why.join('\n'));
  t.regex(why[0]!, /^the multipath route "10\.0\.0\.0\/8\\u0007x{49}" /);
  t.regex(why[1]!, /\(table "\$\(reboot\)\$\(reboot\)\$\("\)/);
  const lease: GatewayState = { ...s, otherRoutes: [], rules: [], routes: [
    { family: 4, dst: 'default', gateway: '10.165.86.1', dev: 'eth0', protocol: 'dhcp', prefsrc: '10.165.86.11', metric: 100 } as Route] };
  t.deepEqual(unmovable(lease, 'eth0', true), []);
  t.deepEqual(unmovable(lease, 'eth0', false), [], 'the same route on a static uplink moves with its source (a default route\'s src is carried)');
  const rtt: GatewayState = { ...lease, routes: lease.routes.map((r) => ({ ...r, metrics: [{ rtt: 10 }] })) };
  t.deepEqual(unmovable(rtt, 'eth0', true), [], 'the lease\'s own route comes back with the lease, whatever it has');
  t.deepEqual(unmovable(rtt, 'eth0', false), ['the route "default" (IPv4) on "eth0" has "metric rtt"'], 'on a static uplink it would lose its rtt');
});
