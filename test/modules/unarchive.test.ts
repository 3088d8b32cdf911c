// unarchive's pure read and judge from what its read printed on a lab host, each beside what
// ansible-core 2.14's unarchive returned for the same task right after on the same host
// (src/modules/unarchive/cases/*.json, "recorded"): handler, files, whether it unpacks, its failures;
// and the refusal of members outside dest (stricter than Ansible, on purpose).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { unarchiveArgs } from '../../src/modules/unarchive/args.js';
import { judge, differs } from '../../src/modules/unarchive/judge.js';
import { decodeC, parseListing, unsafeMember } from '../../src/modules/unarchive/members.js';
import { parseRead } from '../../src/modules/unarchive/read.js';

interface Fragment {
  stdout: string;
  task: Record<string, unknown>;
  recorded: Record<string, any>;
}

const fragment = (name: string): Fragment => JSON.parse(readFileSync(new URL(`../../../src/modules/unarchive/cases/${name}.json`, import.meta.url), 'utf8'));

function verdictOf(name: string) {
  const f = fragment(name);
  const a = unarchiveArgs.parse(f.task);
  const read = parseRead(f.stdout);
  const src = a.remote_src ? a.src : `${read.tmp}/source`;
  return { f, run: () => judge(read, a, src) };
}

for (const name of ['first', 'again', 'opts-first', 'opts-again', 'remote-include', 'drift-mtime']) {
  test(`unarchive ${name}: handler, files and whether it unpacks as ansible decided`, (t) => {
    const { f, run } = verdictOf(name);
    const v = run();
    t.is(v.handler, f.recorded.handler);
    t.is(!v.unarchived, f.recorded.extract_results !== undefined, 'unpacks exactly when ansible did');
    if (f.recorded.files) t.deepEqual(v.files, f.recorded.files);
  });
}

test('unarchive no-dest: the action plugin\'s message', (t) => {
  const { f, run } = verdictOf('no-dest');
  t.is(t.throws(run)?.message, f.recorded.msg);
});

test('unarchive not-archive: no handler, each reason given', (t) => {
  const { run } = verdictOf('not-archive');
  const msg = t.throws(run)?.message ?? '';
  t.regex(msg, /^Failed to find handler for "\/tmp\/hostwire-unarchive\.[^"]+\/source"\. Make sure the required command to extract the file is installed\.\n/);
  t.regex(msg, /This does not look like a tar archive/);
  t.regex(msg, /not in gzip format/);
});

for (const [name, why] of [
  ['evil-abs', /member "\/tmp\/s8x\/arc\/ev\/f" is an absolute path/],
  ['evil-dot', /member "\.\.\/f" has a '\.\.' component/],
  ['evil-link', /symbolic link "lnk" points to the absolute path "\/etc"/],
] as const) {
  test(`unarchive ${name}: refused before anything is unpacked`, (t) => {
    const { run } = verdictOf(name);
    t.regex(t.throws(run)?.message ?? '', why);
  });
}

test('member names are C strings: any byte is data', (t) => {
  t.is(decodeC('a\\nb\\"c\\\\d\\303\\251'), 'a\nb"c\\d\u00e9');
  const [m] = parseListing('-rw-r--r-- 0/0 1 2024-01-02 03:04:05 "x -> \\"y\\"" -> "z"');
  t.deepEqual(m, { name: 'x -> "y"', type: '-', target: 'z' });
});

test('links may not point outside dest; inside is fine', (t) => {
  t.is(unsafeMember({ name: 'a/l', type: 'l', target: '../b' }), undefined);
  t.regex(unsafeMember({ name: 'a/l', type: 'l', target: '../../b' }) ?? '', /points outside dest/);
  t.regex(unsafeMember({ name: 'h', type: 'h', target: 'x/../../etc/shadow' }) ?? '', /points outside dest/);
  t.regex(unsafeMember({ name: 'h', type: 'h', target: '/etc/shadow' }) ?? '', /hard link "h" points to the absolute path/);
  t.regex(unsafeMember({ name: 'a/../../x', type: '-' }) ?? '', /'\.\.' component/);
});

test('is_unarchived: differences in what the task sets do not count, a missing link does', (t) => {
  const a = unarchiveArgs.parse({ src: 'x', dest: '/d', mode: '0750', owner: 'nobody' });
  t.false(differs('bin/run: Mode differs\nbin/run: Uid differs', 0, a));
  t.true(differs('bin/run: Gid differs', 0, a));
  t.false(differs('bin/run: Gid differs', 1000, a), 'only root compares owners');
  t.true(differs('tar: l: Warning: Cannot readlink: No such file or directory', 0, a));
});

test('the deprecated copy is the opposite of remote_src, as the action plugin reads it (kubespray: copy: false)', (t) => {
  t.true(unarchiveArgs.parse({ src: '/tmp/a.tgz', dest: '/d', copy: false }).remote_src);
  t.false(unarchiveArgs.parse({ src: 'a.tgz', dest: '/d', copy: 'yes' }).remote_src);
  const both = unarchiveArgs.safeParse({ src: 'a.tgz', dest: '/d', copy: false, remote_src: true });
  t.false(both.success);
  t.regex(both.success ? '' : both.error.message, /parameters are mutually exclusive: \('copy', 'remote_src'\)/);
});
