// with_X loops (loop-items.ts) and the list lookups behind them. Expected items and messages were
// recorded from ansible-core 2.14.18's own code path on this machine: listify_lookup_plugin_terms,
// then lookup_loader.get(X).run(terms, wantlist=True), as TaskExecutor._get_loop_items does.
import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopItems } from '../../src/engine/vars/index.js';
import { loopLookupName } from '../../src/engine/vars/loop-items.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-loops-'));
mkdirSync(join(dir, 'vars'));
writeFileSync(join(dir, 'b.yml'), 'x');
writeFileSync(join(dir, 'vars', 'os.yml'), 'x');

const V = {
  users: [{ name: 'a', keys: ['k1', 'k2'], opt: { g: ['x'] } }, { name: 'b', keys: [] }, { name: 'c' }],
  d: { x: 1, y: [2] }, l1: [1, 2], l2: ['a', 'b', 'c'], nested: [[1, [2]], 3], playbook_dir: dir,
};

const items = (loopWith: string, loop: unknown, module = 'debug'): unknown => loopItems({ loop, loopWith, module }, V);

// [lookup, terms, items as ansible-core 2.14 gives them]
const RECORDED: [string, unknown, unknown][] = [
  ['items', [[1, [2, 3]], 4], [1, [2, 3], 4]],
  ['items', '{{ nested }}', [1, [2], 3]],
  ['items', 'l1', ['l1']],
  ['items', '{{ d }}', ['x', 'y']],
  ['list', [[1, [2]], 3], [[1, [2]], 3]],
  ['dict', '{{ d }}', [{ key: 'x', value: 1 }, { key: 'y', value: [2] }]],
  ['dict', [{ a: 1 }, { b: 2 }], [{ key: 'a', value: 1 }, { key: 'b', value: 2 }]],
  ['nested', [[1, 2], ['a', 'b']], [[1, 'a'], [1, 'b'], [2, 'a'], [2, 'b']]],
  ['nested', ['{{ l1 }}', '{{ l2 }}'], [[1, 'a'], [1, 'b'], [1, 'c'], [2, 'a'], [2, 'b'], [2, 'c']]],
  ['nested', [[1, 2], 'x'], [[1, 'x'], [2, 'x']]],
  ['nested', [[[1, 2], [3]], ['a']], [[1, 2, 'a'], [3, 'a']]],
  ['cartesian', [[1, 2], ['a', 'b']], [[1, 'a'], [1, 'b'], [2, 'a'], [2, 'b']]],
  ['together', [[1, 2, 3], ['a', 'b']], [[1, 'a'], [2, 'b'], [3, null]]],
  ['together', ['{{ l1 }}', '{{ l2 }}'], [[1, 'a'], [2, 'b'], [null, 'c']]],
  ['indexed_items', ['a', ['b', 'c']], [[0, 'a'], [1, 'b'], [2, 'c']]],
  ['indexed_items', '{{ l2 }}', [[0, 'a'], [1, 'b'], [2, 'c']]],
  ['subelements', ['{{ users }}', 'keys', { skip_missing: true }], [[{ name: 'a', opt: { g: ['x'] } }, 'k1'], [{ name: 'a', opt: { g: ['x'] } }, 'k2']]],
  ['subelements', ['{{ users }}', 'opt.g', { skip_missing: true }], [[{ name: 'a', keys: ['k1', 'k2'], opt: {} }, 'x']]],
  ['flattened', [[1, [2, [3]]], 'x', [['y']]], [1, 2, 3, 'x', 'y']],
  ['flattened', [1, 'None', 2], [1]],
  ['sequence', 'start=1 end=5 format=x%02d', ['x01', 'x02', 'x03', 'x04', 'x05']],
  ['sequence', ['start=1 end=3', 'count=2 start=10 stride=5'], ['1', '2', '3', '10', '15']],
  ['sequence', '0x10-0x12', ['16', '17', '18']],
  ['random_choice', ['only'], ['only']],
  ['random_choice', [], []],
  ['first_found', ['{{ undefined_x }}.yml', 'b.yml'], [join(dir, 'b.yml')]],
];

for (const [name, terms, expected] of RECORDED) {
  test(`with_${name}: ${JSON.stringify(terms)}`, (t) => {
    t.deepEqual(items(name, terms), expected);
  });
}

const ERRORS: [string, unknown, string][] = [
  ['dict', '{{ l1 }}', 'with_dict expects a dict'],
  ['nested', [], 'with_nested requires at least one element in the nested list'],
  ['together', [], 'with_together requires at least one element in each list'],
  ['indexed_items', '{{ d }}', 'with_indexed_items expects a list'],
  ['subelements', ['{{ users }}', 'keys'], "could not find 'keys' key in iterated item '{'name': 'c'}'"],
  ['subelements', ['{{ d }}', 'k'], "subelements lookup expects a dictionary, got '1'"],
  ['subelements', ['{{ users }}'], 'subelements lookup expects a list of two or three items, '],
  ['sequence', 'end=0', 'to count backwards make stride negative'],
  // A dict term holding an undefined variable is dropped whole (Templar.is_template), so nothing is left to find.
  ['first_found', [{ files: ['{{ undefined_x }}.yml', 'b.yml'] }], 'No file was found when using first_found.'],
];

for (const [name, terms, message] of ERRORS) {
  test(`with_${name} refuses ${JSON.stringify(terms)} with Ansible's words`, (t) => {
    const err = t.throws(() => items(name, terms));
    t.true(err.message.includes(message), err.message);
    t.true(err.message.startsWith(`with_${name}`), err.message);
  });
}

test('subelements leaves the caller data whole (Ansible pops the key from the item it yields, not from the variable)', (t) => {
  items('subelements', ['{{ users }}', 'keys', { skip_missing: true }]);
  t.deepEqual(V.users[0]!.keys, ['k1', 'k2']);
});

test('first_found in an include_vars task looks in vars/ (the subdir the action implies)', (t) => {
  t.deepEqual(items('first_found', ['os.yml'], 'include_vars'), [join(dir, 'vars', 'os.yml')]);
});

test('a with_ key names its lookup: FQCN forms, and none for a lookup hostwire lacks', (t) => {
  t.is(loopLookupName('with_ansible.builtin.dict'), 'dict');
  t.is(loopLookupName('with_community.general.cartesian'), 'cartesian');
  t.is(loopLookupName('with_csvfile'), undefined);
});

test('loop: must render to a list (Ansible\'s message)', (t) => {
  const err = t.throws(() => loopItems({ loop: '{{ d }}', module: 'debug' }, V));
  t.regex(err.message, /Invalid data passed to 'loop', it requires a list, got this instead: \{'x': 1, 'y': \[2\]\}/);
});
