// renderValue/renderString/evalExpression: native values, omit, deep rendering, errors and the cache.
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { OMIT, compileCount, evalExpression, isTemplated, renderString, renderValue } from '../../src/engine/vars/index.js';

const vars = { n: 5, l: [1, 2], d: { a: 1, nested: { b: 'x' } }, s: 'text', t: true, nul: null, iface: 'eth0' };
const where = { file: 'roles/net/tasks/main.yml', line: 12, column: 7 };

test('a lone expression has the type Ansible 2.14 gives it (text unless it reads as a list, dict or bool)', (t) => {
  t.is(renderValue('{{ n }}', vars), 5, 'a variable alone whose value is a number stays one (SINGLE_VAR)');
  t.is(renderValue('{{ t }}', vars), true);
  t.is(renderValue('{{ nul }}', vars), null);
  t.deepEqual(renderValue('{{ l }}', vars), [1, 2]);
  t.deepEqual(renderValue('{{ d.nested }}', vars), { b: 'x' });
  t.is(renderValue('{{ n * 2 }}', vars), '10');
  t.is(renderValue('{{ n * 2 }}\n', vars), '10\n', 'text keeps the trailing newline of a YAML block scalar');
  t.deepEqual(renderValue('{{ l }}\n', vars), [1, 2], 'a list read back whatever the trailing newline');
});

test('mixed text renders to a string the way Python prints values', (t) => {
  t.is(renderValue('n={{ n }}', vars), 'n=5');
  t.is(renderValue('{{ l }} and {{ t }}', vars), '[1, 2] and True');
  t.is(renderValue(' {{ n }}', vars), ' 5', 'leading whitespace makes it text');
  t.is(renderValue('x{{ nul }}y', vars), 'xy');
});

test('renderString always returns a string', (t) => {
  t.is(renderString('{{ n }}', vars), '5');
  t.is(renderString('{{ d.nested }}', vars), "{'b': 'x'}");
  t.is(renderString('plain', vars), 'plain');
  t.is(renderString('{% for i in l %}\n- {{ i }}\n{% endfor %}\n', vars), '- 1\n- 2\n', 'trim_blocks like Ansible');
});

test('renderValue renders deep, keeps keys, passes non-strings through', (t) => {
  const args = { name: '{{ iface }}', mtu: '{{ 1400 + 50 }}', list: ['{{ s }}', 3, false], '{{ key }}': 'k', sub: { v: '{{ l }}' } };
  t.deepEqual(renderValue(args, vars), { name: 'eth0', mtu: '1450', list: ['text', 3, false], '{{ key }}': 'k', sub: { v: [1, 2] } });
  t.is(renderValue(42, vars), 42);
  t.is(renderValue(null, vars), null);
});

test('omit drops the key (and list items) where it lands', (t) => {
  const args = { state: 'present', mode: '{{ mode | default(omit) }}', inner: { x: '{{ omit }}', y: 1 }, l: ['a', '{{ omit }}'] };
  t.deepEqual(renderValue(args, vars), { state: 'present', inner: { y: 1 }, l: ['a'] });
  t.is(renderValue('{{ omit }}', vars), OMIT);
});

test('undefined variables fail with the variable name and the task location', (t) => {
  const e1 = t.throws(() => renderValue({ a: 'ok', b: '{{ missing_var }}' }, vars, where), { instanceOf: BadInputError });
  t.is(e1!.message, "roles/net/tasks/main.yml:12:7: undefined variable 'missing_var' in '{{ missing_var }}'");
  const e2 = t.throws(() => renderValue('{{ d.nested.zz }}', vars, where));
  t.regex(e2!.message, /undefined variable 'd\.nested\.zz': 'dict object' has no attribute 'zz'/);
  const e3 = t.throws(() => renderValue('{{ [1, missing] }}', vars, where));
  t.regex(e3!.message, /undefined variable 'missing'/, 'undefined inside a list literal');
  const e4 = t.throws(() => renderValue('{% for x in nope %}{% endfor %}', vars, where));
  t.regex(e4!.message, /undefined variable 'nope'/);
  const e5 = t.throws(() => renderValue('{{ missing.attr | upper }}', vars));
  t.regex(e5!.message, /undefined variable 'missing.attr': 'missing' is undefined/);
});

test('default, is defined and mandatory handle undefined without throwing', (t) => {
  t.is(renderValue("{{ missing | default('x') }}", vars), 'x');
  t.is(renderValue('{{ missing.a.b is defined }}', vars), false);
  t.is(renderValue("{{ d.zz | d('y') }}", vars), 'y');
  t.is(renderValue('{{ missing is undefined }}', vars), true);
  const e = t.throws(() => renderValue('{{ missing | mandatory }}', vars));
  t.regex(e!.message, /Mandatory variable 'missing' not defined/);
});

test('template syntax errors are bad input with a snippet and no stack', (t) => {
  const e = t.throws(() => renderValue('{{ n + }}', vars, where), { instanceOf: BadInputError });
  t.is(e!.message, "roles/net/tasks/main.yml:12:7: template error: unexpected token: }} in '{{ n + }}'");
  const e2 = t.throws(() => renderValue('{% if n %}open', vars));
  t.regex(e2!.message, /^template error: .* in '\{% if n %\}open'$/);
  t.notRegex(e2!.message, /\bat .*\.js/);
  const e3 = t.throws(() => renderValue('{{ n | no_such_filter }}', vars));
  t.regex(e3!.message, /filter not found: no_such_filter/);
});

test('evalExpression returns native values of bare expressions', (t) => {
  t.deepEqual(evalExpression('l + [3]', vars), [1, 2, 3]);
  t.deepEqual(evalExpression('{{ range(2) | list }}', vars), [0, 1]);
  t.deepEqual(evalExpression("d | dict2items | map(attribute='key') | list", vars), ['a', 'nested']);
  t.throws(() => evalExpression('nope', vars), { message: /undefined variable 'nope'/ });
});

test('isTemplated', (t) => {
  t.true(isTemplated('a {{ b }}'));
  t.true(isTemplated('{% if x %}{% endif %}'));
  t.true(isTemplated('{# c #}'));
  t.false(isTemplated('plain { text }'));
});

test('a template string is compiled once and reused (cache)', (t) => {
  const tpl = '{{ n + 1000 }} cache-probe';
  const before = compileCount();
  for (let i = 0; i < 200; i++) renderValue(tpl, { n: i });
  t.is(compileCount() - before, 1);
  t.is(renderValue(tpl, { n: 1 }), '1001 cache-probe');
  t.is(compileCount() - before, 1);
});

test('Jinja syntax Ansible users write', (t) => {
  t.is(renderValue("{{ 'a' ~ n ~ 'b' }}", vars), 'a5b');
  t.is(renderValue('{% set x = n * 2 %}{{ x }}', vars), '10');
  t.is(renderValue("{{ 'big' if n > 3 else 'small' }}", vars), 'big');
  t.is(renderValue('{% for i in l %}{{ loop.index }}/{{ loop.length }} {% endfor %}', vars), '1/2 2/2 ');
  t.is(renderValue('{{ missing is not defined and 3 not in l }}', vars), true);
  t.deepEqual(renderValue('{{ [True, False, None] }}', vars), [true, false, null]);
  t.deepEqual(renderValue('{{ d.items() | list }}', vars), [['a', 1], ['nested', { b: 'x' }]]);
  t.is(renderValue("{{ d.get('zz', 'dflt') }}", vars), 'dflt');
  t.deepEqual(renderValue("{{ 'a b'.split() }}", vars), ['a', 'b']);
  t.is(renderValue("{{ iface.startswith('eth') and ' x '.strip() == 'x' }}", vars), true);
  t.deepEqual(renderValue("{{ {'a': {'b': 1}} }}", vars), { a: { b: 1 } });
  t.is(renderValue("{{ n is divisibleby 5 }}", vars), true);
});

test('lookup env and file; a plugin hostwire lacks is refused clearly', async (t) => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'hw-vars-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'files-key.pub'), 'ssh-ed25519 AAAA test\n\n');
  process.env.HW_VARS_TEST = 'from-env';
  t.teardown(() => delete process.env.HW_VARS_TEST);
  t.is(renderValue("{{ lookup('env', 'HW_VARS_TEST') }}", {}), 'from-env');
  t.is(renderValue("{{ lookup('ansible.builtin.env', 'HW_VARS_UNSET_X') }}", {}), '');
  t.is(renderValue("{{ lookup('file', 'files-key.pub') }}", { playbook_dir: dir }), 'ssh-ed25519 AAAA test');
  t.is(renderValue(`{{ lookup('file', '${join(dir, 'files-key.pub')}') | length }}`, {}), '21');
  t.throws(() => renderValue("{{ lookup('file', 'absent.txt') }}", { playbook_dir: dir }), { message: /could not locate file in lookup: absent.txt/ });
  t.throws(() => renderValue("{{ lookup('csvfile', 'x') }}", {}), { message: /lookup plugin 'csvfile' is not supported/ });
});

test('extract and type_debug filters', (t) => {
  const v = { hv: { a: { ip: '10.0.0.1', n: { x: 1 } }, b: { ip: '10.0.0.2', n: { x: 2 } } }, names: ['a', 'b'] };
  t.deepEqual(evalExpression("names | map('extract', hv, 'ip') | list", v), ['10.0.0.1', '10.0.0.2']);
  t.deepEqual(evalExpression("names | map('extract', hv, ['n', 'x']) | list", v), [1, 2]);
  t.deepEqual([evalExpression('names | type_debug', v), evalExpression('hv | type_debug', v), evalExpression("'s' | type_debug", v)], ['list', 'dict', 'str']);
});
