// find: its arguments, Python's fnmatch and path rules as find.py applies them, the failures it
// returns before reading, and the two-read run (walk, then contains/checksum) against what Ansible
// registered; the single-read results are the recorded cases (src/modules/find/cases/*.json).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { getModule } from '../../src/modules/all.js';
import type { ModuleContext } from '../../src/modules/types.js';
import { fnmatch } from '../../src/modules/kit/fnmatch.js';
import { posixNormpath } from '../../src/modules/find/py-path.js';
import { contentMatches } from '../../src/modules/find/content.js';

const find = getModule('find')!;
const fragment = (name: string) => JSON.parse(readFileSync(new URL(`../../../src/modules/find/cases/${name}.json`, import.meta.url), 'utf8'));

test('find arguments: aliases, comma-separated lists, key=value booleans, Ansible-style refusals', (t) => {
  const a = find.args.parse({ path: '/a,/b', pattern: '*.log,*.gz', exclude: 'x*', recurse: 'yes', depth: '2', age: 3 });
  t.like(a, { paths: ['/a', '/b'], patterns: ['*.log', '*.gz'], excludes: ['x*'], recurse: true, depth: 2, age: '3', file_type: 'file', age_stamp: 'mtime' });
  t.false(find.args.safeParse({ patterns: ['*'] }).success, 'paths is required');
  t.false(find.args.safeParse({ paths: '/a', file_type: 'socket' }).success);
  t.false(find.args.safeParse({ paths: '/a', contains: '(' }).success, 'contains must compile');
  t.false(find.args.safeParse({ paths: '/a', bogus: 1 }).success);
});

test('find: a bad age or size fails as find.py does, before any read', async (t) => {
  const ctx = { probe: () => t.fail('no read') } as unknown as ModuleContext;
  t.deepEqual(await find.run!(find.args.parse({ paths: '/a', age: '3x' }), ctx), { changed: false, failed: true, age: '3x', msg: 'failed to process age' });
  t.deepEqual(await find.run!(find.args.parse({ paths: '/a', size: '1q' }), ctx), { changed: false, failed: true, size: '1q', msg: 'failed to process size' });
});

test("find: Python's fnmatch (expectations from Python 3.11's fnmatch.fnmatch)", (t) => {
  const table: [string, string, boolean][] = [
    ['a.log', '*.log', true], ['.x', '*', true], ['a[b', 'a[b', true], ['ab', 'a[!c]', true], ['a]', 'a[]]', true],
    ['a-', 'a[!]', false], ['a\\b', 'a\\b', true], ['abc', 'a?c', true], ['a/b', 'a*', true], ['A.LOG', '*.log', false],
    ['x', '[z-a]', false], ['ab', 'a[^b]', true], ['a^', 'a[^b]', true],
  ];
  for (const [name, pat, want] of table) t.is(fnmatch(name, pat), want, `${name} ~ ${pat}`);
});

test("find: posixpath.normpath as find.py's result paths use it", (t) => {
  for (const [p, want] of [['/srv/fd//x', '/srv/fd/x'], ['./a/b', 'a/b'], ['//a', '//a'], ['///a/../b', '/b'], ['../a', '../a'], ['a/..', '.']]) t.is(posixNormpath(p), want, p);
});

test("find: contains matches a line from its start (universal newlines) or searches the whole text", (t) => {
  const file = Buffer.from('alpha\r\nneedle here\n');
  t.true(contentMatches(file, 'need', false));
  t.false(contentMatches(file, 'here', false), 're.match: from the start of a line');
  t.true(contentMatches(file, 'here$', true));
  t.true(contentMatches(file, 'alpha$', false), '\\r\\n read as \\n');
  t.false(contentMatches(Buffer.from([0xff, 0x0a]), '.*', true), 'undecodable: no match');
  t.false(contentMatches(undefined, '.*', false), 'unreadable: no match');
});

test('find with contains and get_checksum: the walk, then one read of the chosen files, as Ansible registered', async (t) => {
  const walk = fragment('contains-walk');
  const details = fragment('contains-details');
  const probed: string[] = [];
  const ctx = {
    probe: async (p: { command: string; parse(o: { stdout: string; rc: number }): unknown }) => {
      probed.push(p.command);
      const rec = [walk, details].find((r) => r.command === p.command);
      if (!rec) throw new Error('unexpected read');
      return p.parse(rec);
    },
  } as unknown as ModuleContext;
  const args = find.args.parse(walk.ansibleArgs);
  const result = await find.run!(args, ctx);
  t.deepEqual(probed, [walk.command, details.command]);
  t.is(probed[0], find.readsAhead!(args)[0]!.command, 'the walk is read ahead');
  const noAtime = (r: Record<string, unknown>) => ({ ...r, files: (r.files as Record<string, unknown>[]).map(({ atime: _a, ...f }) => f) });
  t.deepEqual(noAtime(result), noAtime(walk.ansibleResult));
});

test('find: each path is one quoted word, ~ expanded by the shell, a relative path cannot read as an option', (t) => {
  const cmd = find.readsAhead!(find.args.parse({ paths: ["/tmp/it's $(reboot)", '~/x y', '-delete'] }))[0]!.command;
  t.true(cmd.includes(`f='/tmp/it'\\''s $(reboot)';`), cmd);
  t.true(cmd.includes(`f="$HOME"'/x y';`), cmd);
  t.true(cmd.includes(`f=-delete; s="./$f"`), cmd);
});
