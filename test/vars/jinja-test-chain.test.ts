// Issue 16: Jinja2's parse_filter_expr chains `| filter`, `is test` and calls left to right, so a filter
// after a test applies to the test's result (`x is mapping | ternary(1, 2)` is ternary(x is mapping)).
// Each expected text was recorded from Jinja2 3.1 (`Environment().from_string(t).render(**vars)`, with
// Ansible's ternary and bool filters) with the same vars.
import test from 'ava';
import { renderString, renderValue } from '../../src/engine/vars/index.js';

type Vars = Record<string, unknown>;
const RECORDED_JINJA2: [string, Vars, string][] = [
  ['{{ x is mapping | ternary(1,2) }}', { x: {} }, '1'],
  ['{{ x is mapping | ternary(1,2) }}', { x: [] }, '2'],
  ['{{ x is not none | ternary(1,2) }}', { x: null }, '2'],
  ['{{ x is not none | ternary(1,2) }}', { x: 0 }, '1'],
  ['{{ x is defined and y is defined | bool }}', { x: 1, y: 2 }, 'True'],
  ['{{ x is defined and y is defined | bool }}', { x: 1 }, 'False'],
  ['{{ x is divisibleby 3 | string }}', { x: 9 }, 'True'],
  ['{{ x is divisibleby 3 | string }}', { x: 4 }, 'False'],
  ['{{ x is sameas y | int }}', { x: 1, y: 1 }, '1'],
  ['{{ x is sameas y | int }}', { x: true, y: 1 }, '0'],
  ['{{ x | length is divisibleby 2 | string }}', { x: [1, 2] }, 'True'],
  ['{{ 1 + x is number }}', { x: 'a' }, '1'], // 1 + (x is number): 1 + False
  ['{{ -x is number }}', { x: 2 }, 'True'],
  ['{{ x is in [1,2] }}', { x: 2 }, 'True'],
];

for (const [template, vars, expected] of RECORDED_JINJA2) {
  test(`a test chains with filters as in Jinja2: ${template} with ${JSON.stringify(vars)}`, (t) => {
    t.is(renderString(template, vars), expected);
  });
}

test('linux-system-roles firewall: `firewall is mapping | ternary([firewall], firewall)` keeps native values', (t) => {
  const expr = '{{ firewall is mapping | ternary([firewall], firewall) }}';
  t.deepEqual(renderValue(expr, { firewall: { service: 'ssh' } }), [{ service: 'ssh' }]);
  t.deepEqual(renderValue(expr, { firewall: [{ port: '80/tcp' }] }), [{ port: '80/tcp' }]);
});

test('the list filter applied to a test result fails as in Jinja2 (bool is not iterable)', (t) => {
  // Jinja2: `x is in [1,2] | list` is list(x is in [1, 2]) -> TypeError: 'bool' object is not iterable
  t.throws(() => renderString('{{ x is in [1,2] | list }}', { x: 1 }), { message: /'bool' object is not iterable/ });
});

test('chained tests without parentheses are refused as in Jinja2', (t) => {
  t.throws(() => renderString('{{ x is defined is true }}', { x: 1 }), { message: /cannot chain multiple tests with is/ });
});
