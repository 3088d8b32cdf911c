// Host patterns and --limit against `ansible PATTERN --list-hosts` recorded on the fixtures.
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { loadInventory, selectHosts, splitHostPattern } from '../../src/engine/inventory/index.js';
import { fixture, readFixture, sourcesOf } from './helpers.js';

interface PatternCase { inventory: string; pattern: string; limit: string | null; hosts: string[]; rc: number }
const recorded = JSON.parse(readFixture('golden', 'patterns.json')) as PatternCase[];

for (const c of recorded) {
  test(`${c.inventory}: '${c.pattern}'${c.limit ? ` --limit '${c.limit}'` : ''}`, async (t) => {
    t.is(c.rc, 0);
    const inv = await loadInventory(sourcesOf(c.inventory));
    const limit = c.limit ? [c.limit.startsWith('@') ? '@' + fixture('openshift', c.limit.slice(1)) : c.limit] : undefined;
    t.deepEqual(selectHosts(inv, c.pattern, { limit }), c.hosts);
  });
}

test('splitHostPattern keeps ranges and IPv6 whole, splits on : and ,', (t) => {
  t.deepEqual(splitHostPattern('a,b[1], c[2:3] , d'), ['a', 'b[1]', 'c[2:3]', 'd']);
  t.deepEqual(splitHostPattern('web:&db:!old'), ['web', '&db', '!old']);
  t.deepEqual(splitHostPattern('node[01:03]'), ['node[01:03]']);
  t.deepEqual(splitHostPattern('fe80::1'), ['fe80::1']);
  t.deepEqual(splitHostPattern('web1:2222'), ['web1:2222']);
});

test('limit lists combine: several --limit values act as one pattern list', async (t) => {
  const inv = await loadInventory(sourcesOf('openshift'));
  t.deepEqual(selectHosts(inv, 'all', { limit: ['masters', '!master2.example.com'] }), ['master1.example.com', 'master3.example.com']);
  t.deepEqual(selectHosts(inv, 'lb', { limit: ['masters'] }), []);
});

test('bad patterns are BadInputError, no match is just empty', async (t) => {
  const inv = await loadInventory(sourcesOf('openshift'));
  t.deepEqual(selectHosts(inv, 'nosuchgroup'), []);
  t.throws(() => selectHosts(inv, '~web('), { instanceOf: BadInputError, message: /invalid host pattern '~web\('/ });
  t.throws(() => selectHosts(inv, ''), { instanceOf: BadInputError, message: /empty host pattern/ });
  t.throws(() => selectHosts(inv, 'nodes[10]'), { instanceOf: BadInputError, message: /no hosts matched the subscripted pattern/ });
  t.throws(() => selectHosts(inv, 'all', { limit: ['@' + fixture('no-such-retry-file')] }), { instanceOf: BadInputError, message: /cannot read limit file/ });
});
