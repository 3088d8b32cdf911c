import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileReadKind, type FileRead } from '../../src/probe/kinds/files.js';
import { parseStat } from '../../src/modules/kit/file-stat.js';

interface Case { reads: FileRead[]; command: string; stdout: string; single: string[] }
const load = (name: string): Case => JSON.parse(readFileSync(new URL(`../../../src/modules/file/cases/${name}.json`, import.meta.url), 'utf8'));

test('one merged read parses to exactly what each path read alone gives (recorded on real files)', (t) => {
  const c = load('merged-read');
  const split = fileReadKind.split(c.stdout, c.reads);
  t.truthy(split);
  t.is(split!.length, c.reads.length);
  c.reads.forEach((r, i) => t.deepEqual(parseStat({ stdout: split![i], rc: 0 }), parseStat({ stdout: c.single[i], rc: 0 }), r.path));
  // Spot checks that the comparison is not vacuous: binary content, a link, a missing path, a read without content.
  t.deepEqual([...parseStat({ stdout: split![1], rc: 0 }).content!], [0, 1, 255, ...Buffer.from('binary')]);
  t.like(parseStat({ stdout: split![4], rc: 0 }), { type: 'link', target: '/tmp/hw-merge/text.txt', content: undefined });
  t.deepEqual(parseStat({ stdout: split![5], rc: 0 }), { exists: false });
  t.is(parseStat({ stdout: split![6], rc: 0 }).content, undefined);
});

test('the script is still the recorded one (so the recording stays valid)', (t) => {
  const c = load('merged-read');
  t.is(fileReadKind.script(c.reads), c.command);
});

test('contents that do not add up to the sizes stat printed are not trusted (/proc claims size 0)', (t) => {
  const c = load('merged-read-proc');
  t.is(fileReadKind.split(c.stdout, c.reads), undefined);
});

test('cut-off or foreign output is not trusted', (t) => {
  const c = load('merged-read');
  t.is(fileReadKind.split(c.stdout.slice(0, 40), c.reads), undefined);
  t.is(fileReadKind.split('/etc/passwd\0regular file|644|root|root|0|0|10\0\0\0', c.reads), undefined);
  // A content byte lost on the way.
  const cut = c.stdout.slice(0, c.stdout.lastIndexOf('\0') + 1) + Buffer.from('short').toString('base64');
  t.is(fileReadKind.split(cut, c.reads), undefined);
});

test('a stat that prints nothing (no --printf) does not make existing files absent', (t) => {
  const c = load('merged-read-nostat');
  // The shell saw the directory and the file (1 1) and not the missing path (0); stat printed nothing.
  t.is(c.stdout, '\0\0' + '110' + '\0');
  t.is(fileReadKind.split(c.stdout, c.reads), undefined);
});
