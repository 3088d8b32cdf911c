// Jinja2 syntax nunjucks lacks (syntax-patch.ts): each template's expected text was recorded from
// Jinja2 3.1.6 (trim_blocks=True, the do extension, as Ansible configures it) with the same vars.
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { renderString, renderValue } from '../../src/engine/vars/index.js';

const vars = { item: [['a', 'b'], { key: 'k' }], v: 'z', xs: [1, 2], k: 'dyn', d: { a: 1, b: 2 } };

const RECORDED_JINJA2: [string, string][] = [
  ["{{ item.0 }}", "['a', 'b']"],
  ["{{ item.1.key }}", "k"],
  ["{{ item.0.1 }}", "b"],
  ["{{ item.0[0] }}{{ item.0.1 | upper }}", "aB"],
  ["{{ { 'a' ~ v: 1 } }}", "{'az': 1}"],
  ["{{ { k: 1, 'lit': 2 } }}", "{'dyn': 1, 'lit': 2}"],
  ["{{ 1 if false else 2 if true else 3 }}", "2"],
  ["{{ 'x' if xs | length > 5 else 'y' if xs | length > 1 else 'z' }}", "y"],
  ["{{ [1, 2,] }}", "[1, 2]"],
  ["{{ {'a': 1,} }}", "{'a': 1}"],
  ["{{ (1,) | list }}", "[1]"],
  ["{{ (1, 2,) | list }}", "[1, 2]"],
  ["{% for x in 'a', 'b' %}{{ x }}{% endfor %}", "ab"],
  ["{% for x in xs, 3 %}{{ x }};{% endfor %}", "[1, 2];3;"],
  ["{% set l = [] %}{% do l.append(1) %}{% do l.extend([2, 3]) %}{{ l }}", "[1, 2, 3]"],
  ["{% set ns = namespace(found=false, n=0) %}{% for x in xs %}{% set ns.n = ns.n + x %}{% if x == 2 %}{% set ns.found = true %}{% endif %}{% endfor %}{{ ns.found }} {{ ns.n }}", "True 3"],
  ["{{ dict(*[[['a', 1]]]) }}", "{'a': 1}"],
  ["{{ dict(c=3, **d) }}", "{'c': 3, 'a': 1, 'b': 2}"],
  ["{{ range(*[1, 4]) | list }}", "[1, 2, 3]"],
];

for (const [template, expected] of RECORDED_JINJA2) {
  test(`renders as Jinja2 does: ${template}`, (t) => {
    t.is(renderString(template, vars), expected);
  });
}

test('numeric attributes and expression keys keep native values', (t) => {
  t.deepEqual(renderValue('{{ item.0 }}', vars), ['a', 'b']);
  t.is(renderValue('{{ item.1.key }}', vars), 'k');
  t.deepEqual(renderValue("{{ { 'a' ~ v: item.0.1, k: 2 } }}", vars), { az: 'b', dyn: 2 });
  t.deepEqual(renderValue('{{ dict(c=3, **d) }}', vars), { c: 3, a: 1, b: 2 });
});

test('a namespace attribute is the only dotted set target (Jinja2: TemplateRuntimeError)', (t) => {
  const e = t.throws(() => renderString('{% set x = {} %}{% set x.a = 1 %}', vars), { instanceOf: BadInputError });
  t.regex(e!.message, /cannot assign attribute on non-namespace object/);
});

test('syntax errors still name what was expected', (t) => {
  t.throws(() => renderString('{{ [1 2] }}', vars), { message: /expected ',' or ']'/ });
  t.throws(() => renderString('{{ {1 2} }}', vars), { message: /expected ':' after a dict key/ });
  t.throws(() => renderString('{{ x.-1 }}', vars), { message: /expected name as lookup value/ });
  t.throws(() => renderString('{{ dict(*5) }}', vars), { message: /Value after \* must be an iterable, not int/ });
});
