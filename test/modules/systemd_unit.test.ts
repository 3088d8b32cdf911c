import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseUnitState, planUnit, unitFilePath } from '../../src/modules/systemd_unit/systemd_unit.js';
import { getModule } from '../../src/modules/all.js';

const load = (name: string) => parseUnitState(JSON.parse(readFileSync(new URL(`../../../src/modules/systemd_unit/cases/${name}.json`, import.meta.url), 'utf8')));
const args = (a: Record<string, unknown>) => getModule('systemd_unit')!.args.parse(a);
const recorded = '[Unit]\nDescription=recorded\n\n[Service]\nExecStart=/bin/sleep infinity\n';

test('unit and drop-in paths', (t) => {
  t.is(unitFilePath(args({ name: 'ovs-vswitchd.service', content: '' })), '/etc/systemd/system/ovs-vswitchd.service');
  t.is(unitFilePath(args({ name: 'ovs-vswitchd.service', dropin: '10-mem', content: '' })), '/etc/systemd/system/ovs-vswitchd.service.d/10-mem.conf');
  t.is(unitFilePath(args({ name: 'a.service', dropin: 'x.conf', path: '/run/systemd/system/', content: '' })), '/run/systemd/system/a.service.d/x.conf');
  t.false(getModule('systemd_unit')!.args.safeParse({ name: 'ovs-vswitchd', content: '' }).success);
});

test('plans from recorded probes: same content ok, new drop-in creates its dir, absent removes', (t) => {
  t.deepEqual(planUnit(load('unit-present'), args({ name: 'hwrec.service', content: recorded })), []);
  const upd = planUnit(load('unit-present'), args({ name: 'hwrec.service', content: recorded + 'Restart=always\n' }));
  t.is(upd[0].summary, 'update /etc/systemd/system/hwrec.service');
  const d = planUnit(load('dropin-absent'), args({ name: 'hwrec.service', dropin: '10-env', content: '[Service]\nEnvironment=A=1\n' }));
  t.deepEqual(d.map((c) => c.summary), ['create directory /etc/systemd/system/hwrec.service.d', 'create /etc/systemd/system/hwrec.service.d/10-env.conf']);
  t.is(d[1].write?.mode, '0644');
  t.deepEqual(planUnit(load('unit-present'), args({ name: 'hwrec.service', state: 'absent' }))[0].run, ['rm -f -- /etc/systemd/system/hwrec.service']);
  t.deepEqual(planUnit(load('dropin-absent'), args({ name: 'hwrec.service', dropin: '10-env', state: 'absent' })), []);
});

test('missing systemctl names the package', (t) => {
  t.throws(() => planUnit(load('no-systemctl'), args({ name: 'hwrec.service', content: recorded }), 'node-1'), { message: 'systemctl not found on node-1: install systemd' });
});
