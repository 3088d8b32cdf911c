import test from 'ava';
import { ovsDbModule, planDb, readDb, type OvsDbArgs } from '../../src/modules/ovs_db/ovs_db.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => ovsDbModule.args.parse(a) as OvsDbArgs;

test('reads one key of a map column; set and remove', (t) => {
  const c = loadCase('ovs_db', 'probe-other-config');
  const a = args(c.args!);
  t.is(ovsDbModule.probe!(a, { host: 'h', vars: {} }).command, c.command);
  const s = readDb(c.stdout, a);
  t.deepEqual(s, { value: '2' });
  t.deepEqual(planDb(s, a), []);
  t.is(planDb(s, args({ ...c.args, value: 4 }))[0].run[0], `ovs-vsctl --timeout=5 set Open_vSwitch . 'other_config:n-handler-threads="4"'`);
  t.is(planDb(s, args({ col: 'other_config', key: 'n-handler-threads', state: 'absent' }))[0].run[0], `ovs-vsctl --timeout=5 remove Open_vSwitch . other_config '"n-handler-threads"'`);
  t.deepEqual(planDb({}, args({ col: 'other_config', key: 'x', state: 'absent' })), []);
});

test('a missing record is a clear failure (recorded)', (t) => {
  const c = loadCase('ovs_db', 'probe-no-row');
  t.throws(() => readDb(c.stdout, args(c.args!)), { message: /no record 'nobr' in table Bridge/ });
  t.regex(loadCase('ovs_db', 'no-record-error').stderr!, /no row "nobr" in table Bridge/);
});
