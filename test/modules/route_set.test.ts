import test from 'ava';
import { planRouteSet, routeSetModule, type RouteSetArgs } from '../../src/modules/route_set/route_set.js';
import { readRouteTable, within } from '../../src/modules/route_set/parse.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => routeSetModule.args.parse(a) as RouteSetArgs;
const probe = (name: string) => {
  const c = loadCase('route_set', name);
  const a = args(c.args!);
  return { a, table: routeSetModule.probe!(a, { host: 'h', vars: {} }).parse({ stdout: c.stdout, rc: c.rc }) };
};

test('the probe command is the recorded one', (t) => {
  const c = loadCase('route_set', 'drifted');
  t.is(routeSetModule.probe!(args(c.args!), { host: 'h', vars: {} }).command, c.command);
});

test('parses the main table: own subnet on cni0, peers via eth0, duplicates by metric', (t) => {
  const { table } = probe('drifted');
  t.truthy(table.find((r) => r.dst === '10.244.1.0/24' && r.dev === 'cni0' && r.via === undefined));
  t.is(table.filter((r) => r.dst === '10.244.2.0/24').length, 2);
  t.truthy(table.find((r) => r.dst === '10.244.2.0/24' && r.metric === 100));
  t.truthy(table.find((r) => r.dst === '0.0.0.0/0' && r.via === '10.182.160.1'));
});

test('drift: wrong gateway replaced, stale lease route and duplicate metric deleted, outside and own untouched', (t) => {
  const { a, table } = probe('drifted');
  const runs = planRouteSet(table, a).map((c) => c.run[0]);
  t.deepEqual(runs, [
    'ip -4 route replace 10.244.3.0/24 table main metric 0 via 10.182.160.13 dev eth0',
    'ip -4 route del 10.244.2.0/24 table main metric 100',
    'ip -4 route del 10.244.9.0/24 table main metric 0',
  ]);
  t.false(runs.some((r) => r.includes('192.0.2.0') || r.includes('10.244.1.0') || r.includes('default')));
});

test('converged table: no change; purge false keeps unknown routes', (t) => {
  const { a, table } = probe('converged');
  t.deepEqual(planRouteSet(table, a), []);
  const d = probe('drifted');
  const runs = planRouteSet(d.table, { ...d.a, purge: false }).map((c) => c.run[0]);
  t.deepEqual(runs, ['ip -4 route replace 10.244.3.0/24 table main metric 0 via 10.182.160.13 dev eth0']);
});

test('fresh host: the peer route is added; removing all leases deletes every peer route', (t) => {
  const { a, table } = probe('fresh-host');
  const [c] = planRouteSet(table, a);
  t.is(c.run[0], 'ip -4 route add 10.244.1.0/24 table main metric 0 via 10.182.160.11 dev eth0');
  t.is(c.before, 'absent\n');
  const conv = probe('converged');
  const runs = planRouteSet(conv.table, { ...conv.a, routes: [] }).map((x) => x.run[0]);
  t.deepEqual(runs, ['ip -4 route del 10.244.2.0/24 table main metric 0', 'ip -4 route del 10.244.3.0/24 table main metric 0']);
});

test('tool errors are clear failures', (t) => {
  const bad = loadCase('route_set', 'bad-table');
  t.throws(() => readRouteTable(bad.stdout, 'nosuch'), { message: /table nosuch failed: Error: argument "nosuch" is wrong/ });
  const none = loadCase('route_set', 'no-ip-tool');
  t.throws(() => readRouteTable(none.stdout, 'main'), { message: /ip not found on the host: install the package iproute2/ });
});

test('arguments: routes must lie inside the network, need via or dev, no unknown keys', (t) => {
  t.false(routeSetModule.args.safeParse({ network: '10.244.0.0/16', routes: [{ dst: '10.245.1.0/24', via: '10.0.0.1' }] }).success);
  t.false(routeSetModule.args.safeParse({ network: '10.244.0.0/16', routes: [{ dst: '10.244.1.0/24' }] }).success);
  t.false(routeSetModule.args.safeParse({ network: '10.244.0.0/16', routes: [], purge: 'yes' }).success);
  t.false(routeSetModule.args.safeParse({ network: '10.244.0.0', routes: [] }).success);
  t.false(routeSetModule.args.safeParse({ network: '10.244.0.0/16', bogus: 1 }).success);
  t.true(routeSetModule.args.safeParse({ network: '10.244.0.0/16', routes: [{ dst: '10.244.1.0/24', dev: 'eth0' }] }).success);
});

test('within: containment by prefix', (t) => {
  t.true(within('10.244.3.0/24', '10.244.0.0/16'));
  t.true(within('10.244.0.0/16', '10.244.0.0/16'));
  t.false(within('10.245.0.0/24', '10.244.0.0/16'));
  t.false(within('10.0.0.0/8', '10.244.0.0/16'));
  t.true(within('192.0.2.0/24', '0.0.0.0/0'));
});
