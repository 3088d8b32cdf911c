// The README's role reference is generated from the roles' defaults: it must match them exactly.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { roleDocs, roleSection, withRoleDocs } from '../../src/docs/role-docs.js';

const root = new URL('../../../', import.meta.url);

test('README.md documents every role variable with its real default (run `npm run docs` when this fails)', async (t) => {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  t.is(withRoleDocs(readme, await roleDocs(new URL('roles', root).pathname)), readme);
});

test('a section takes the header as purpose and comments above/beside each variable as meaning', (t) => {
  const md = roleSection('r', '# r: does a thing. See README.md beside this file.\n\n# The port.\nr_port: 80\nr_list: [a, b]   # which ones\nr_empty: ""\n');
  t.true(md.startsWith('### r\n\nDoes a thing. Details: [roles/r/README.md]'));
  t.true(md.includes('| `r_port` | `80` | The port. |'));
  t.true(md.includes('| `r_list` | `["a","b"]` | which ones |'));
  t.true(md.includes('| `r_empty` | `""` |  |'));
});
