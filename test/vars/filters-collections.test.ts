// password_hash, json_query and ansible.utils.fact_diff. Hashes were recorded with ansible-core 2.14.18's
// get_encrypted_password (passlib 1.7 on this machine); fact_diff outputs with the collection's
// plugin_utils/fact_diff.py algorithm (difflib, the whole text as context); json_query with jmespath 1.1.
import test from 'ava';
import { renderValue } from '../../src/engine/vars/index.js';

const r = (s: string, vars: Record<string, unknown> = {}): unknown => renderValue(s, vars);

const HASHES: [string, string][] = [
  ["'secret' | password_hash('sha512', 'saltsalt', rounds=5000)", '$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN.Pq.H91p5hVO1'],
  ["'secret' | password_hash('sha256', 'saltsalt', rounds=5000)", '$5$saltsalt$0IyaXrmV7.sGNS6tirgqHLqX/G.FBvgkYA.lpPdS5sA'],
  ["'secret' | password_hash('sha512', 'saltsalt', rounds=10000)", '$6$rounds=10000$saltsalt$WowrPBpEDVlCoruBosYlrZycTCx3//TyDHYqEhX9DUHHt0XTztUqzQDDUuvUGRA8aUe9p55hcAxeGcu58sm3u.'],
  ["'secret' | password_hash('sha256', 'saltsalt', rounds=1000)", '$5$rounds=1000$saltsalt$eKLZU9t9OoPWrqOQsoTIKG0aYkZ5rGOoOQhiIvoSWX2'],
  ["'secret' | password_hash('md5', 'saltsalt')", '$1$saltsalt$9xy1btjgzLYfb7hivXtC//'],
  ["'secret' | password_hash('sha512', 'saltsalt')", '$6$rounds=656000$saltsalt$Vg7us3Hcq8rplCTNjwvGRwObM2xyfDZZ.XP2YLQ.ii85wAq/psu28uEfoMveNszsQWMgkWRxbZm2mBBlNn3.J0'],
  ["'pässwörd' | password_hash('sha512', 'abc./XYZ09', rounds=656000)", '$6$rounds=656000$abc./XYZ09$S560DyqCdlsx6yFf6Ist8wWvB0TpHApJ4uB.gQJyXVMLG3oXgmXMI5R0pLqjqmU0mqa5TgB0senwhEQ4T58GO/'],
];

for (const [expr, expected] of HASHES) test(`password_hash: ${expr}`, (t) => t.is(r(`{{ ${expr} }}`), expected));

test('password_hash: random salt of the scheme\'s size; bad salts and schemes refused', (t) => {
  t.regex(r("{{ 'secret' | password_hash('sha512', rounds=5000) }}") as string, /^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
  t.regex(r("{{ 'secret' | password_hash('md5') }}") as string, /^\$1\$[./0-9A-Za-z]{8}\$[./0-9A-Za-z]{22}$/);
  t.throws(() => r("{{ 'x' | password_hash('sha512', 'bad$salt') }}"), { message: /invalid characters in sha512_crypt salt/ });
  t.throws(() => r(`{{ 'x' | password_hash('sha512', '${'a'.repeat(17)}') }}`), { message: /salt too large \(sha512_crypt requires <= 16 chars\)/ });
  t.throws(() => r("{{ 'x' | password_hash('blowfish') }}"), { message: /cannot hash with 'bcrypt'/ });
});

test('json_query: JMESPath as Python\'s jmespath answers', (t) => {
  const people = [{ name: 'a', age: 30, tags: ['x'] }, { name: 'b', age: 40, tags: [] }];
  t.deepEqual(r("{{ people | json_query('[].name') }}", { people }), ['a', 'b']);
  t.deepEqual(r("{{ people | json_query('[?age > `35`].name') }}", { people }), ['b']);
  t.deepEqual(r("{{ people | community.general.json_query('[].{n: name, t: tags[0]}') }}", { people }), [{ n: 'a', t: 'x' }, { n: 'b', t: null }]);
  t.throws(() => r("{{ people | json_query('[?') }}", { people }), { message: /JMESPathError in json_query filter plugin/ });
});

const OLD = { a: 1, b: { c: 2 }, l: [1, 2] };
const NEW = { a: 1, b: { c: 3 }, l: [1], z: 'q' };
const DIFFS: [unknown, unknown, string, string[]][] = [
  [OLD, NEW, '', ['--- before', '+++ after', '@@ -1,10 +1,10 @@', ' {', '     "a": 1,', '     "b": {', '-        "c": 2', '+        "c": 3', '     },', '     "l": [', '-        1,', '-        2', '-    ]', '+        1', '+    ],', '+    "z": "q"', ' }', '']],
  [OLD, OLD, '', []],
  ['a\nb\n', 'a\nc\n', '', ['--- before', '+++ after', '@@ -1,2 +1,2 @@', ' a', '-b', '+c', '']],
  [OLD, NEW, ", plugin={'vars': {'skip_lines': ['^.*\"a\".*$']}}", ['--- before', '+++ after', '@@ -1,3 +1,4 @@', ' a', ' b', ' l', '+z', '']],
  ['x', 'y', '', ['--- before', '+++ after', '@@ -1 +1 @@', '-x', '\\ No newline at end of file', '+y', '\\ No newline at end of file', '']],
  ['', 'a\n', '', ['--- before', '+++ after', '@@ -0,0 +1 @@', '+a', '']],
  [['a', 'b'], ['b'], '', ['--- before', '+++ after', '@@ -1,2 +1 @@', '-a', ' b', '']],
  [OLD, NEW, ', common=true', ['@@ -1,10 +1,10 @@', ' {', '     "a": 1,', '     "b": {', '     },', '     "l": [', ' }', '']],
  ['a\nb\nc', 'a\nB\nc\n', '', ['--- before', '+++ after', '@@ -1,3 +1,3 @@', ' a', '-b', '-c', '\\ No newline at end of file', '+B', '+c', '']],
];

for (const [before, after, extra, expected] of DIFFS) {
  test(`ansible.utils.fact_diff ${JSON.stringify(before)} -> ${JSON.stringify(after)}${extra}`, (t) => {
    t.deepEqual(r(`{{ before | ansible.utils.fact_diff(after${extra}) }}`, { before, after }), expected);
  });
}
