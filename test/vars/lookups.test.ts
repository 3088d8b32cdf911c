// Lookup plugins (lookups.ts) as ansible-core's lookup/*.py define them: results and errors.
import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderValue } from '../../src/engine/vars/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-lookups-'));
mkdirSync(join(dir, 'files'));
mkdirSync(join(dir, 'templates'));
writeFileSync(join(dir, 'files', 'a.conf'), 'A {{ not_rendered }}\n');
writeFileSync(join(dir, 'files', 'b.conf'), 'B');
writeFileSync(join(dir, 'files', 'c.txt'), 'C');
writeFileSync(join(dir, 'debian.yml'), 'x');
const vars = { playbook_dir: dir, who: 'web1', d: { a: 1, b: 2 } };

test('pipe returns stdout without trailing whitespace, run in the playbook dir; output is never rendered', (t) => {
  t.is(renderValue("{{ lookup('pipe', 'printf \"%s\\n\" \"{{ x }}\"; pwd') }}", vars), `{{ x }}\n${dir}`);
  t.throws(() => renderValue("{{ lookup('pipe', 'exit 3') }}", vars), { message: /lookup_plugin\.pipe\(exit 3\) returned 3/ });
});

test('lines gives one item per output line', (t) => {
  t.deepEqual(renderValue("{{ query('lines', 'printf \"a\\nb\\n\"') }}", vars), ['a', 'b']);
  t.is(renderValue("{{ lookup('lines', 'printf \"a\\nb\\n\"') }}", vars), 'a,b', 'lookup joins strings with a comma');
});

test('vars, items and dict', (t) => {
  t.is(renderValue("{{ lookup('vars', 'who') }}", vars), 'web1');
  t.is(renderValue("{{ lookup('vars', 'nope', default='x') }}", vars), 'x');
  t.throws(() => renderValue("{{ lookup('vars', 'nope') }}", vars), { message: /No variable found with this name: nope/ });
  t.deepEqual(renderValue("{{ query('items', [1, [2, 3]], 4) }}", vars), [1, [2, 3], 4], 'one level, as LookupBase._flatten');
  t.deepEqual(renderValue("{{ lookup('dict', d) }}", vars), [{ key: 'a', value: 1 }, { key: 'b', value: 2 }]);
});

test('sequence as the documented with_sequence examples', (t) => {
  t.deepEqual(renderValue("{{ query('sequence', 'start=1 end=5') }}", vars), ['1', '2', '3', '4', '5']);
  t.deepEqual(renderValue("{{ query('sequence', 'start=0 end=32 format=testuser%02x') | last }}", vars), 'testuser20');
  t.deepEqual(renderValue("{{ query('sequence', '4-8/2:host%02d') }}", vars), ['host04', 'host06', 'host08']);
  t.deepEqual(renderValue("{{ query('sequence', 'count=3') }}", vars), ['1', '2', '3']);
  t.throws(() => renderValue("{{ query('sequence', 'start=5 end=1') }}", vars), { message: /to count backwards make stride negative/ });
});

test('fileglob and first_found search the files dir, then the playbook dir', (t) => {
  t.deepEqual(renderValue("{{ query('fileglob', '*.conf') }}", vars), [join(dir, 'files', 'a.conf'), join(dir, 'files', 'b.conf')]);
  t.is(renderValue("{{ lookup('first_found', ['redhat.yml', 'debian.yml']) }}", vars), join(dir, 'debian.yml'));
  t.is(renderValue("{{ lookup('first_found', {'files': ['x.yml', 'c.txt'], 'paths': ['files']}) }}", vars), join(dir, 'files', 'c.txt'));
  t.deepEqual(renderValue("{{ query('first_found', ['x.yml'], skip=true) }}", vars), []);
  t.throws(() => renderValue("{{ lookup('first_found', ['x.yml']) }}", vars), { message: /No file was found when using first_found/ });
});

test('file text is data: braces stay literal', (t) => {
  t.is(renderValue("{{ lookup('file', 'a.conf') }}", vars), 'A {{ not_rendered }}');
  t.throws(() => renderValue("{{ lookup('nosuch', 'x') }}", vars), { message: /lookup plugin 'nosuch' is not supported/ });
});
