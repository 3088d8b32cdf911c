import test from 'ava';
import { ipRouteModule, planRoute, readRoutes, type IpRouteArgs } from '../../src/modules/ip_route/ip_route.js';
import { canonicalDst } from '../../src/modules/kit/ip-routes.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => ipRouteModule.args.parse(a) as IpRouteArgs;
const routes = () => readRoutes(loadCase('ip_route', 'probe-routes').stdout);

test('parses unicast routes of all tables, v4 and v6', (t) => {
  const r = routes();
  t.truthy(r.find((x) => x.dst === '0.0.0.0/0' && x.via === '10.175.217.1' && x.table === 'main'));
  t.truthy(r.find((x) => x.dst === '203.0.113.0/24' && x.table === '100'));
  t.truthy(r.find((x) => x.family === 6 && x.dst === '2001:db8::/64' && x.metric === 256));
  t.falsy(r.find((x) => x.dst === '127.0.0.1/32'), 'local table entries are skipped');
});

test('canonical destinations', (t) => {
  t.is(canonicalDst('default', 6), '::/0');
  t.is(canonicalDst('10.1.2.3/16', 4), '10.1.0.0/16');
  t.is(canonicalDst('10.1.2.3', 4), '10.1.2.3/32');
});

test('same route: no change; other gateway: replace; absent: delete', (t) => {
  const c = loadCase('ip_route', 'probe-routes');
  t.deepEqual(planRoute(routes(), args(c.args!)), []);
  const [r] = planRoute(routes(), args({ dst: '198.51.100.0/24', via: '192.0.2.2', metric: 50 }));
  t.deepEqual(r.run, ['ip -4 route replace 198.51.100.0/24 table main metric 50 via 192.0.2.2']);
  t.deepEqual(planRoute(routes(), args({ dst: '203.0.113.0/24', dev: 'br-t1', table: 100 })), []);
  t.deepEqual(planRoute(routes(), args({ dst: '203.0.113.0/24', table: 100, state: 'absent' }))[0].run, ['ip -4 route del 203.0.113.0/24 table 100 metric 0']);
  t.regex(planRoute(routes(), args({ dst: '192.0.2.128/25', dev: 'br-t1', metric: 7 }))[0].run[0], /route add 192\.0\.2\.128\/25 table main metric 7 dev br-t1/);
});
