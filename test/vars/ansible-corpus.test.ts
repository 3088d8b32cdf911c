// Table-driven comparison with ansible-core: fixtures/ansible-corpus.json holds what Ansible 2.14's
// Templar returned for each template (recorded by fixtures/record-ansible.py; Ansible is not run here).
// Ansible's default (non-native) mode gives text unless the output reads back as a list, dict or bool
// (and a lone variable holding a number, bool or None): ours must be equal, type included.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { BadInputError } from '../../src/errors.js';
import { renderValue, templatedVars } from '../../src/engine/vars/index.js';

interface Case {
  template: string;
  result?: unknown;
  error?: string;
}
const corpus = JSON.parse(readFileSync(new URL('../../../test/vars/fixtures/ansible-corpus.json', import.meta.url), 'utf8')) as {
  vars: Record<string, unknown>;
  cases: Case[];
};

test('corpus has cases recorded from ansible-core', (t) => {
  t.true(corpus.cases.length > 200);
});

for (const c of corpus.cases) {
  test(`ansible: ${JSON.stringify(c.template)}`, (t) => {
    const loc = { file: 'corpus.yml', line: 1 };
    if (c.error !== undefined) {
      const err = t.throws(() => renderValue(c.template, templatedVars(structuredClone(corpus.vars)), loc), { instanceOf: BadInputError });
      t.true(err!.message.startsWith('corpus.yml:1: '), err!.message);
      t.false(/\n\s+at /.test(err!.message), 'no stack trace in the message');
      // Every name Ansible quotes ('foo', 'dict object', 'bar') appears in ours too.
      for (const m of c.error.matchAll(/'([^']+)'/g)) t.true(err!.message.includes(m[1]!), `${err!.message} should mention ${m[1]}`);
      return;
    }
    const ours = renderValue(c.template, templatedVars(structuredClone(corpus.vars)), loc);
    t.deepEqual(ours, c.result);
  });
}
