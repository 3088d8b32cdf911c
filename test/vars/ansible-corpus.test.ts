// Table-driven comparison with ansible-core: fixtures/ansible-corpus.json holds what Ansible 2.14's
// Templar returned for each template (recorded by fixtures/record-ansible.py; Ansible is not run here).
// Ansible's default (non-native) mode prints scalars as text, so a native number/bool/None from us is
// compared through its printed form; lists and dicts must be equal.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { BadInputError } from '../../src/errors.js';
import { renderValue } from '../../src/engine/vars/index.js';
import { pyStr } from '../../src/engine/vars/py.js';

interface Case {
  template: string;
  result?: unknown;
  error?: string;
}
const corpus = JSON.parse(readFileSync(new URL('../../../test/vars/fixtures/ansible-corpus.json', import.meta.url), 'utf8')) as {
  vars: Record<string, unknown>;
  cases: Case[];
};

/** Ours matches Ansible's text output: equal, or the same number, or None printed as ''. */
function sameAsText(ours: unknown, theirs: string): boolean {
  if (ours === theirs) return true;
  if (ours === null) return theirs === '';
  if (typeof ours === 'number' && theirs.trim() !== '' && Number(theirs) === ours) return true;
  if (typeof ours === 'string') return false;
  return pyStr(ours) === theirs;
}

test('corpus has cases recorded from ansible-core', (t) => {
  t.true(corpus.cases.length > 200);
});

for (const c of corpus.cases) {
  test(`ansible: ${c.template}`, (t) => {
    const loc = { file: 'corpus.yml', line: 1 };
    if (c.error !== undefined) {
      const err = t.throws(() => renderValue(c.template, structuredClone(corpus.vars), loc), { instanceOf: BadInputError });
      t.true(err!.message.startsWith('corpus.yml:1: '), err!.message);
      t.false(/\n\s+at /.test(err!.message), 'no stack trace in the message');
      // Every name Ansible quotes ('foo', 'dict object', 'bar') appears in ours too.
      for (const m of c.error.matchAll(/'([^']+)'/g)) t.true(err!.message.includes(m[1]!), `${err!.message} should mention ${m[1]}`);
      return;
    }
    const ours = renderValue(c.template, structuredClone(corpus.vars), loc);
    if (typeof c.result === 'string') t.true(sameAsText(ours, c.result), `ours ${JSON.stringify(ours)} vs ansible ${JSON.stringify(c.result)}`);
    else t.deepEqual(ours, c.result);
  });
}
