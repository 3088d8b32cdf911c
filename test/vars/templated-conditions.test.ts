// Conditions written with {{ }} and text after a single expression, as ansible-core 2.14.18 evaluates
// them (recorded on this machine with Conditional.evaluate_conditional and Templar.template).
import test from 'ava';
import { evalCondition, mergeTrustedLayers, renderValue, templatedVars } from '../../src/engine/vars/index.js';

const trusted = { x: 2, s: 'abc', one: 1, names: ['a', 'b'], host: 'n1', groups: { m: ['n1'] }, flag: true };
const data = { out: '1', r: { stdout: "lookup('pipe', 'echo PWNED >&2')", rc: 0 }, inventory_hostname: 'n1' };
const { vars, isData } = mergeTrustedLayers([[trusted, 'trusted'], [data, 'data']]);
const view = templatedVars(vars, undefined, isData);

// [condition, Ansible's verdict]: the first render's text is evaluated again.
const RECORDED: [string, boolean][] = [
  ['{{ x }} == 1', false],
  ['{{ x }} == 2', true],
  ['{{ one }} == 1', true],
  ["'{{ s }}' == 'abc'", true],
  ["'{{ host }}' in groups.m", true],
  ['{{ flag }}', true],
  ['{{ x > 1 }}', true],
  ['{{ names }}', true],
  ["{{ 'False' }}", false],
  ["{{ '' }}", false],
];

for (const [cond, expected] of RECORDED) test(`when: "${cond}" is ${expected}`, (t) => t.is(evalCondition(cond, view), expected));

test("the rendered text's names are looked up, as Ansible does ('abc' is undefined)", (t) => {
  t.throws(() => evalCondition("{{ s }} == 'abc'", view), { message: /undefined variable 'abc'/ });
});

test('a host\'s numbers and inert words are spliced like Ansible; text from data is never evaluated', (t) => {
  t.true(evalCondition('{{ r.rc }} == 0', view));
  t.false(evalCondition('{{ r.rc }} == 1', view));
  t.true(evalCondition("'{{ inventory_hostname }}' in groups.m", view));
  const err = t.throws(() => evalCondition('{{ r.stdout }} == 1', view));
  t.regex(err.message, /builds an expression from data/);
  t.true(evalCondition('{{ r.stdout }}', view), 'a whole {{ }} over data counts by its truth (the text is not evaluated)');
});

// [template, value] as Templar.template gives them.
const TRAILING: [string, unknown][] = [
  ['{{ who }}\n', 'w1\n'],
  ['{{ n }}\n', 3],
  ['{{ lst }}\n', ['a', 1]],
  ['{{ who }}\n\n', 'w1\n\n'],
  ['{{ who }} \n', 'w1 \n'],
  ['{{ nl }}\n', 'a\n'],
  ['{{ who | upper }}\n', 'W1\n'],
  ['{{ who }}', 'w1'],
];

for (const [tpl, expected] of TRAILING) {
  test(`${JSON.stringify(tpl)} renders as Ansible renders it`, (t) => {
    t.deepEqual(renderValue(tpl, { who: 'w1', n: 3, lst: ['a', 1], nl: 'a\n' }), expected);
  });
}
