// Templates cannot hang or compute nonsense: a catastrophic regex ends in a bounded error naming the
// pattern; division by zero is Python's ZeroDivisionError, not inf/NaN.
import test from 'ava';
import { BadInputError, HostwireError } from '../../src/errors.js';
import { renderString } from '../../src/engine/vars/index.js';
import { REGEX_TIME_LIMIT_MS } from '../../src/engine/vars/filters/bounded-regex.js';

const loc = { file: 'site.yml', line: 7, column: 9 };
const failsWith = (t: import('ava').ExecutionContext, template: string, message: RegExp) => {
  const err = t.throws(() => renderString(template, {}, loc));
  t.true(err instanceof HostwireError || err instanceof BadInputError, String(err));
  t.regex(err!.message, message);
  t.regex(err!.message, /site\.yml:7/);
};

test('regex_search with catastrophic backtracking ends within the bound, naming the pattern', (t) => {
  const started = Date.now();
  failsWith(t, "{{ ('a' * 40 + '!') | regex_search('(a+)+$') }}", /regular expression '\(a\+\)\+\$' did not finish within 5 s/);
  t.true(Date.now() - started < REGEX_TIME_LIMIT_MS + 5000, `took ${Date.now() - started} ms`);
});

test('regex tests and regex_replace are bounded too', (t) => {
  failsWith(t, "{{ ('x' * 40 + 'y') is match('(x|xx)+z') }}", /did not finish/);
  failsWith(t, "{{ ('a' * 40 + 'b') | regex_replace('(a*)*c', 'z') }}", /did not finish/);
});

test('ordinary regexes still match, replace and find all', (t) => {
  t.is(renderString("{{ 'node-12 up' | regex_search('(?P<n>\\d+)') }}", {}, loc), '12');
  t.is(renderString("{{ 'a1b22c' | regex_replace('(\\d+)', '<\\1>') }}", {}, loc), 'a<1>b<22>c');
  t.is(renderString("{{ 'aaa' | regex_replace('a', 'b', count=2) }}", {}, loc), 'bba');
  t.is(renderString("{{ 'a1b22' | regex_findall('\\d+') | join(',') }}", {}, loc), '1,22');
  t.is(renderString("{{ 'abc' | regex_replace('x*', '-') }}", {}, loc), '-a-b-c-');
  t.is(renderString("{{ 'eth0' is match('eth') }}", {}, loc), 'True');
});

test('division by zero is an error, as Python raises it, never inf or nan', (t) => {
  failsWith(t, '{{ 1 / 0 }}', /division by zero/);
  failsWith(t, '{{ 7 // 0 }}', /division or modulo by zero/);
  failsWith(t, '{{ 7 % 0 }}', /modulo by zero/);
  t.is(renderString('{{ 7 / 2 }}', {}, loc), '3.5');
  t.is(renderString('{{ -7 // 2 }}', {}, loc), '-4');
  t.is(renderString('{{ -7 % 3 }}', {}, loc), '2');
});
