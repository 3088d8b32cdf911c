import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseStat } from '../../src/modules/kit/file-stat.js';
import { editLines } from '../../src/modules/lineinfile/edit.js';
import { getModule } from '../../src/modules/all.js';
import type { ModuleContext } from '../../src/modules/types.js';

const load = (name: string) => parseStat(JSON.parse(readFileSync(new URL(`../../../src/modules/file/cases/${name}.json`, import.meta.url), 'utf8')));
// Real files recorded from a lab host.
const nm = load('nm-conf').content!.toString();
const ovs = load('default-ovs').content!.toString();
const P = 'present' as const;

test('regexp: the last match is replaced; an unchanged file comes back identical', (t) => {
  const out = editLines(nm, { state: P, regexp: '^managed=', line: 'managed=true' });
  t.is(out, nm.replace('managed=false', 'managed=true'));
  t.is(editLines(out, { state: P, regexp: '^managed=', line: 'managed=true' }), out);
  t.is(editLines('a=1\nb=2\na=3\n', { state: P, regexp: '^a=', line: 'a=9' }), 'a=1\nb=2\na=9\n');
});

test('no regexp match but the exact line exists: no change; otherwise append at EOF', (t) => {
  t.is(editLines(nm, { state: P, regexp: '^nope=', line: 'managed=false' }), nm);
  t.is(editLines(nm, { state: P, line: 'dns=none' }), nm + 'dns=none\n');
  t.is(editLines('a', { state: P, line: 'b' }), 'a\nb\n');
  t.is(editLines('', { state: P, line: 'b' }), 'b\n');
});

test('insertafter / insertbefore with regexes, BOF and firstmatch', (t) => {
  t.is(editLines(nm, { state: P, line: 'dns=none', insertafter: '^\\[main\\]' }), nm.replace('[main]\n', '[main]\ndns=none\n'));
  t.is(editLines(nm, { state: P, line: '# managed by hostwire', insertbefore: 'BOF' }), '# managed by hostwire\n' + nm);
  t.is(editLines('x\nk\nx\n', { state: P, line: 'n', insertbefore: '^x' }), 'x\nk\nn\nx\n');
  t.is(editLines('x\nk\nx\n', { state: P, line: 'n', insertbefore: '^x', firstmatch: true }), 'n\nx\nk\nx\n');
  t.is(editLines('x\n', { state: P, line: 'n', insertafter: '^nomatch' }), 'x\nn\n');
});

test('backrefs and Python named groups', (t) => {
  const out = editLines(ovs, { state: P, regexp: '^# (?P<k>OVS_CTL_OPTS)=$', line: '\\g<k>=--no-mlockall', backrefs: true });
  t.true(out.includes('\nOVS_CTL_OPTS=--no-mlockall\n'));
  t.is(editLines(ovs, { state: P, regexp: '^NOPE(.*)', line: 'x\\1', backrefs: true }), ovs);
});

test('absent drops every matching line and keeps the rest (comments included)', (t) => {
  const out = editLines(ovs, { state: 'absent', regexp: '^# FORCE_COREFILES' });
  t.false(out.includes('# FORCE_COREFILES'));
  t.is(out.split('\n').length, ovs.split('\n').length - 2);
  t.is(editLines(nm, { state: 'absent', line: 'not there' }), nm);
});

test('plan: missing file without create fails; with create the parent is made', (t) => {
  const m = getModule('lineinfile')!;
  const ctx = { host: 'h1' } as ModuleContext;
  const absent = parseStat({ stdout: 'stat:absent\n', rc: 0 });
  t.throws(() => m.plan!(absent, m.args.parse({ path: '/etc/x/y', line: 'a' }), ctx), { message: /does not exist/ });
  const changes = m.plan!(absent, m.args.parse({ path: '/etc/x/y', line: 'a', create: true, mode: '0600' }), ctx);
  t.deepEqual(changes.map((c) => c.summary), ['create directory /etc/x', 'create /etc/x/y']);
  t.deepEqual(m.plan!(absent, m.args.parse({ path: '/etc/x/y', line: 'a', state: 'absent' }), ctx), []);
  t.false(m.args.safeParse({ path: '/x' }).success);
  t.false(m.args.safeParse({ path: '/x', line: 'a', regexp: '(' }).success);
});
