// docs/modules.md is generated from the modules' docs and schemas: it must match them exactly.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { getModule, moduleNames } from '../../src/modules/all.js';
import { modulesMarkdown, moduleText } from '../../src/docs/module-docs.js';

const root = new URL('../../../', import.meta.url);

test('docs/modules.md matches every module\'s doc and schema (run `npm run docs` when this fails)', (t) => {
  t.is(readFileSync(new URL('docs/modules.md', root), 'utf8'), modulesMarkdown());
});

test('the reference has a section and an index row for every native module', (t) => {
  const md = modulesMarkdown();
  for (const name of moduleNames()) {
    t.true(md.includes(`\n## ${name}\n`), name);
    t.true(md.includes(`| [${name}](#${name}) |`), name);
  }
  t.true(md.includes('| `state` | str | default: present; choices: present, absent |'));
});

test('the README links the module reference', (t) => {
  t.regex(readFileSync(new URL('README.md', root), 'utf8'), /\(docs\/modules\.md\)/);
});

test('a module text marks mandatory arguments and shows check/diff support and the example', (t) => {
  const text = moduleText(getModule('sysctl')!);
  t.true(text.startsWith('> SYSCTL\n'));
  t.regex(text, /^= name$/m);
  t.regex(text, /^- state\n {4}.+\n {4}str; default: present; choices: present, absent$/m);
  t.true(text.includes('CHECK MODE: full'));
  t.true(text.includes('EXAMPLE:\n\n  - sysctl:'));
});
