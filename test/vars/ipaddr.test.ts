// ansible.utils ipaddr-family filters against the examples published with the collection
// (fixtures/ipaddr-cases.json says where each expected value comes from).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { renderValue } from '../../src/engine/vars/index.js';
import { singleNodeValue } from '../../src/engine/vars/concat.js';

const table = JSON.parse(readFileSync(new URL('../../../test/vars/fixtures/ipaddr-cases.json', import.meta.url), 'utf8')) as {
  vars: Record<string, unknown>;
  cases: [string, unknown][];
};

for (const [template, expected] of table.cases) {
  test(`ip: ${template}`, (t) => {
    // The filter's value as a template gives it in Ansible 2.14: a number or None prints as text.
    t.deepEqual(renderValue(template, table.vars), singleNodeValue(expected, false));
  });
}

test('ipmath and ipsubnet reject bad input with a clear message', (t) => {
  t.throws(() => renderValue("{{ 'nope' | ipmath(1) }}", {}), { message: /You must pass a valid IP address; nope is invalid/ });
  t.throws(() => renderValue("{{ '10.0.0.1' | ipmath('x') }}", {}), { message: /You must pass an integer/ });
  t.throws(() => renderValue("{{ '10.1.0.0/24' | ipsubnet('192.168.0.0/16') }}", {}), { message: /10\.1\.0\.0\/24 is not in the subnet 192\.168\.0\.0\/16/ });
  t.throws(() => renderValue("{{ '10.0.0.1/24' | ipaddr('bogus') }}", {}), { message: /ipaddr: unknown filter type: bogus/ });
});
