// readYamlFile parses a file once per text (Ansible's DataLoader file cache) and gives every reader its own copy
// with the same source locations, so a reader that changes what it got cannot change what the next one reads.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { locOf, locOfItem, readYamlFile } from '../../src/engine/yaml-source.js';
import { unsafeTextOf } from '../../src/engine/vars/unsafe.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-yamlcache-'));

test('a file read twice: equal values, separate objects, the same file:line:column', async (t) => {
  const file = path.join(dir, 'vars.yml');
  writeFileSync(file, 'a:\n  b: [1, {c: 2}]\n  d: !unsafe "{{ x }}"\n__proto__: {e: 1}\n');
  const first = (await readYamlFile(file)) as { a: { b: unknown[]; d: unknown } };
  const second = (await readYamlFile(file)) as { a: { b: unknown[]; d: unknown } };
  t.deepEqual(first, second);
  t.not(first, second);
  t.not(first.a, second.a);
  t.not(first.a.b, second.a.b);
  t.is(unsafeTextOf(second.a.d), '{{ x }}', '!unsafe stays unsafe in a copy');
  t.deepEqual(Object.keys(second), ['a', '__proto__'], 'a __proto__ key stays a key in a copy');
  t.is(Object.getPrototypeOf(second), Object.prototype);
  for (const v of [first, second]) {
    t.deepEqual(locOf(v.a, 'b'), { file, line: 2, column: 3 });
    t.deepEqual(locOf(v.a.b[1]), { file, line: 2, column: 10 });
    t.deepEqual(locOfItem(v.a.b, 0), { file, line: 2, column: 7 });
  }
  first.a.b.push(3);
  (first.a.b[1] as Record<string, unknown>).c = 'changed';
  const third = (await readYamlFile(file)) as { a: { b: unknown[] } };
  t.deepEqual(third.a.b, [1, { c: 2 }], 'what a reader changed is its own');
});

test('a file whose text changed is parsed again', async (t) => {
  const file = path.join(dir, 'tasks.yml');
  writeFileSync(file, '- name: one\n');
  t.deepEqual(await readYamlFile(file), [{ name: 'one' }]);
  writeFileSync(file, '# now two\n- name: two\n');
  const v = (await readYamlFile(file)) as unknown[];
  t.deepEqual(v, [{ name: 'two' }]);
  t.deepEqual(locOf(v[0]), { file, line: 2, column: 3 });
});
