import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseShow } from '../../src/modules/kit/unit-status.js';
import { unitShowKind } from '../../src/probe/kinds/services.js';
import { planService } from '../../src/modules/service/service.js';
import { getModule } from '../../src/modules/all.js';

const load = (name: string) => parseShow(JSON.parse(readFileSync(new URL(`../../../src/modules/service/cases/${name}.json`, import.meta.url), 'utf8')));
const args = (a: Record<string, unknown>) => getModule('service')!.args.parse(a);
const runs = (c: { run: string[] }[]) => c.flatMap((x) => x.run);

test('parses recorded systemctl show output', (t) => {
  t.like(load('running-enabled'), { systemctl: true, loadState: 'loaded', activeState: 'active', unitFileState: 'enabled', needDaemonReload: false });
  t.like(load('not-found'), { loadState: 'not-found', unitFileState: '' });
  t.like(load('masked'), { loadState: 'masked', unitFileState: 'masked' });
  t.like(load('need-reload'), { unitFileState: 'static', needDaemonReload: true });
  t.false(load('no-systemctl').systemctl);
  t.throws(() => parseShow({ stdout: '', rc: 1 }), { message: /no unit state/ });
});

test('converged units plan nothing; restarted always acts', (t) => {
  t.deepEqual(planService(load('running-enabled'), args({ name: 'ssh', state: 'started', enabled: true })), []);
  t.deepEqual(planService(load('disabled-inactive'), args({ name: 'ovn-central', state: 'stopped', enabled: false })), []);
  t.deepEqual(runs(planService(load('running-enabled'), args({ name: 'ssh', state: 'restarted' }))), ['systemctl restart -- ssh']);
});

test('start + enable a disabled unit, with a before/after diff', (t) => {
  const [c] = planService(load('disabled-inactive'), args({ name: 'ovn-central.service', state: 'started', enabled: true }));
  t.deepEqual(c.run, ['systemctl enable -- ovn-central.service', 'systemctl start -- ovn-central.service']);
  t.is(c.before, 'ActiveState=inactive\nUnitFileState=disabled\n');
  t.is(c.after, 'ActiveState=active\nUnitFileState=enabled\n');
  t.deepEqual(runs(planService(load('running-enabled'), args({ name: 'ssh', state: 'reloaded' }))), ['systemctl reload -- ssh']);
  t.deepEqual(runs(planService(load('disabled-inactive'), args({ name: 'x', state: 'reloaded' }))), ['systemctl start -- x']);
  t.deepEqual(runs(planService(load('masked'), args({ name: 'console-getty', masked: false }))), ['systemctl unmask -- console-getty']);
  t.deepEqual(runs(planService(load('running-enabled'), args({ name: 'ssh', masked: true }))), ['systemctl mask -- ssh']);
});

test('daemon-reload comes first, once, only when something acts', (t) => {
  t.deepEqual(planService(load('need-reload'), args({ name: 'hwrec', state: 'started' })), []);
  t.deepEqual(runs(planService(load('need-reload'), args({ name: 'hwrec', state: 'restarted' }))), ['systemctl daemon-reload', 'systemctl restart -- hwrec']);
  t.deepEqual(runs(planService(load('need-reload'), args({ name: 'hwrec', daemon_reload: true }))), ['systemctl daemon-reload']);
  t.deepEqual(runs(planService(load('running-enabled'), args({ name: 'ssh', state: 'restarted' }), 'h', true)), ['systemctl daemon-reload', 'systemctl restart -- ssh']);
});

test('unknown unit and missing systemctl are clear failures', (t) => {
  t.throws(() => planService(load('not-found'), args({ name: 'nope', state: 'started' }), 'h1'), { message: 'Could not find the requested service nope on h1' });
  // a unit file written earlier in this batch, not yet reloaded: act (after the reload) instead of failing
  t.deepEqual(runs(planService(load('not-found'), args({ name: 'nope', state: 'started' }), 'h1', true)), ['systemctl daemon-reload', 'systemctl start -- nope']);
  t.throws(() => planService(load('no-systemctl'), args({ name: 'ssh', state: 'started' }), 'h1'), { message: 'systemctl not found on h1: install systemd' });
});

test('several units read by one systemctl show split back into each unit\'s own read (recorded)', (t) => {
  const c = JSON.parse(readFileSync(new URL('../../../src/modules/service/cases/merged-show.json', import.meta.url), 'utf8')) as { units: string[]; stdout: string; single: string[] };
  const split = unitShowKind.split(c.stdout, c.units);
  t.truthy(split);
  c.units.forEach((u, i) => t.deepEqual(parseShow({ stdout: split![i], rc: 0 }), parseShow({ stdout: c.single[i], rc: 0 }), u));
  t.like(parseShow({ stdout: split![1], rc: 0 }), { loadState: 'not-found' });
  t.like(parseShow({ stdout: split![3], rc: 0 }), { activeState: 'active', subState: 'running' });
  // One block short (a unit systemctl refused): not trusted, each is read alone.
  t.is(unitShowKind.split(c.stdout, [...c.units, 'extra.service']), undefined);
  t.deepEqual(unitShowKind.split('systemctl:missing\n', ['a', 'b']), ['systemctl:missing\n', 'systemctl:missing\n']);
  t.is(unitShowKind.script(['a.service']), getModule('service')!.probe!(getModule('service')!.args.parse({ name: 'a.service' }), { host: 'h', vars: {} }).command);
});
