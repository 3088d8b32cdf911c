// The re-implemented Python pieces against what Python/Ansible returned for the same input
// (fixtures/golden/units.json, recorded with Ansible's own interpreter).
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { expandHostPattern, parseIniValue } from '../../src/engine/inventory/index.js';
import { shlexSplit } from '../../src/engine/inventory/shlex.js';
import { readFixture } from './helpers.js';

type Rec<T> = [string, T][];
const units = JSON.parse(readFixture('golden', 'units.json')) as {
  literals: Rec<{ value?: unknown; type?: string }>;
  shlex: Rec<{ tokens?: string[]; error?: string }>;
  ranges: Rec<{ hosts?: string[]; port?: number | null; error?: string }>;
};

test('INI values parse like ast.literal_eval with raw-text fallback', (t) => {
  let checked = 0;
  for (const [input, expected] of units.literals) {
    // complex numbers have no JSON/JS counterpart; Ansible could not print them either.
    if (!('value' in expected)) continue;
    t.deepEqual(parseIniValue(input), expected.value, `input ${JSON.stringify(input)}`);
    checked++;
  }
  t.true(checked > 50);
});

test('host lines split like shlex.split(comments=True)', (t) => {
  for (const [input, expected] of units.shlex) {
    if (expected.error) t.throws(() => shlexSplit(input), { message: expected.error }, input);
    else t.deepEqual(shlexSplit(input), expected.tokens, input);
  }
});

test('host ranges and ports expand like Ansible', (t) => {
  for (const [input, expected] of units.ranges) {
    if (expected.error) {
      t.throws(() => expandHostPattern(input, { file: 'hosts', line: 3 }), { instanceOf: BadInputError, message: /^hosts:3: malformed host range/ }, input);
    } else {
      const r = expandHostPattern(input);
      t.deepEqual(r.hosts, expected.hosts, input);
      t.is(r.port, expected.port ?? undefined, input);
    }
  }
});

test('malformed ranges name what was expected', (t) => {
  for (const bad of ['node[1:]', 'node[1:2', 'node[1:2:3:4]', 'node[5:1]', 'node[01:100]', 'node[a:5]', 'node[1:5:0]']) {
    const err = t.throws(() => expandHostPattern(bad, { file: 'inv', line: 7, column: 1 }), { instanceOf: BadInputError }, bad);
    t.regex(err!.message, /^inv:7:1: malformed host range .*expected \[begin:end\]/, bad);
  }
});
