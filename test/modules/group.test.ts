// group: Ansible's argument rules (required_if non_unique -> gid) and a name that could be read as an
// option refused; the plans themselves are the recorded cases (src/modules/group/cases).
import test from 'ava';
import { getModule } from '../../src/modules/all.js';

const group = getModule('group')!;

test('group arguments: defaults, Ansible bools, required_if, hostile names refused', (t) => {
  t.deepEqual(group.args.parse({ name: 'ovs', system: 'yes', gid: '42' }), { name: 'ovs', state: 'present', gid: 42, system: true, local: false, non_unique: false });
  t.regex(JSON.stringify(group.args.safeParse({ name: 'x', non_unique: true }).error?.issues), /non_unique is True but all of the following are missing: gid/);
  for (const name of ['-r', 'a:b', 'a b', 'x\ny', '']) t.false(group.args.safeParse({ name }).success, JSON.stringify(name));
  t.false(group.args.safeParse({ name: 'x', force: true }).success, 'not an argument of 2.14\'s group');
});
