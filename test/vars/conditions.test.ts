// evalCondition (when/failed_when/changed_when/until/assert that) and referencedVars.
import test from 'ava';
import { evalCondition, referencedVars } from '../../src/engine/vars/index.js';

const vars = {
  os: 'RedHat', ver: '9.2', n: 3, e: [], flag: 'no', t: true, res: { rc: 1, failed: true, changed: false, stdout: 'ok' },
  ifaces: ['eth0', 'br-ex'],
};

test('bare expressions evaluate like Ansible conditionals', (t) => {
  t.true(evalCondition("os == 'RedHat'", vars));
  t.true(evalCondition("ver is version('9', '>=')", vars));
  t.false(evalCondition('e', vars), 'empty list is false');
  t.true(evalCondition('n > 2 and not e', vars));
  t.true(evalCondition("'br-ex' in ifaces", vars));
  t.true(evalCondition('res is failed', vars));
  t.true(evalCondition('res is not changed', vars));
  t.true(evalCondition('res.rc != 0', vars));
  t.true(evalCondition('missing is not defined', vars));
  t.true(evalCondition("flag | bool == false", vars));
  t.true(evalCondition(String.raw`res.stdout is match('\w+')`, vars), 'Python escapes in conditions');
});

test('booleans, yes/no words and {{ }}-wrapped conditions', (t) => {
  t.true(evalCondition(true, vars));
  t.false(evalCondition(false, vars));
  t.true(evalCondition('yes', vars));
  t.false(evalCondition('no', vars));
  t.false(evalCondition('False', vars));
  t.true(evalCondition('{{ n == 3 }}', vars));
  t.true(evalCondition('', vars), 'an empty condition is true');
});

test('a list of conditions is AND-ed', (t) => {
  t.true(evalCondition(['n == 3', true, "os is match('Red')"], vars));
  t.false(evalCondition(['n == 3', 'e'], vars));
  t.true(evalCondition([], vars));
  t.false(evalCondition(['n == 4', 'undefined_var'], vars), 'stops at the first false, like Ansible');
});

test('undefined variables in conditions are errors naming them', (t) => {
  t.throws(() => evalCondition('missing', vars, { file: 'x.yml', line: 3 }), { message: "x.yml:3: undefined variable 'missing' in 'missing'" });
  t.throws(() => evalCondition('not missing', vars), { message: /undefined variable 'missing'/ });
  t.throws(() => evalCondition('res.nope == 1', vars), { message: /'res.nope': 'dict object' has no attribute 'nope'/ });
});

test('referencedVars lists top-level names, not locals, filters or globals', (t) => {
  const args = {
    name: '{{ iface.name }}-{{ suffix | default(omit) }}',
    items: "{% for x in things if x.on %}{{ x.id ~ sep }}{% endfor %}{% set y = 1 %}{{ y }}",
    mtu: "{{ lookup('env', 'MTU') | int + mtu_extra[idx] }}",
    n: 3,
    plain: 'no templates here',
    deep: ['{{ hostvars[other].ansible_host }}', { k: "{{ d.get('a') is defined and True }}" }],
  };
  t.deepEqual([...referencedVars(args)].sort(), ['d', 'hostvars', 'idx', 'iface', 'mtu_extra', 'other', 'sep', 'suffix', 'things']);
  t.deepEqual([...referencedVars('res.rc != 0 and item in allowed', { bareExpressions: true })].sort(), ['allowed', 'item', 'res']);
  t.deepEqual([...referencedVars('{{ broken')], []);
});
