// blockinfile against ansible-core 2.14 itself: each recorded case holds the file as read on a lab
// host and the file Ansible's blockinfile left after running with the same arguments; hostwire's plan
// (cases.test.ts checks its changes) must write exactly those bytes, or fail where Ansible failed.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { getModule } from '../../src/modules/all.js';
import { parseStat } from '../../src/modules/kit/file-stat.js';
import { editBlock, splitKeepEnds } from '../../src/modules/blockinfile/edit.js';
import type { ModuleContext } from '../../src/modules/types.js';

const dir = new URL('../../../src/modules/blockinfile/cases/', import.meta.url);
const mod = getModule('blockinfile')!;

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const c = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
  test(`${file}: as Ansible left the file (${c.note})`, (t) => {
    const args = mod.args.parse(c.args);
    const st = parseStat({ stdout: c.stdout, rc: c.rc });
    const plan = () => mod.plan!(st, args, { host: 'h' } as ModuleContext);
    if (c.ansible.failed) {
      t.throws(plan, { message: c.ansible.msg });
      return;
    }
    const changes = plan();
    t.is(changes.length > 0, c.ansible.changed, 'changed as Ansible');
    const write = changes.find((ch) => ch.write)?.write;
    const after = write ? Buffer.from(write.content) : st.content ?? null;
    t.is(after === null ? null : after.toString('base64'), c.ansible.file_after);
  });
}

test('Python bytes.splitlines(keepends): \\n, \\r\\n and a lone \\r end lines; a last line without one is kept', (t) => {
  t.deepEqual(splitKeepEnds('a\r\nb\rc\nd'), ['a\r\n', 'b\r', 'c\n', 'd']);
  t.deepEqual(splitKeepEnds(''), []);
});

test("insertafter with Python's $ (before the line's newline) and named groups", (t) => {
  const e = { state: 'present' as const, marker: '# {mark}', marker_begin: 'B', marker_end: 'E', block: 'x' };
  t.is(editBlock('k=1\nend\nk=2\n', { ...e, insertafter: '^k=(?P<v>\\d)$' }), 'k=1\nend\nk=2\n# B\nx\n# E\n');
  t.is(editBlock('a\n', { ...e, insertbefore: '^a$' }), '# B\nx\n# E\na\n');
});

test('blockinfile arguments: aliases, mutually exclusive anchors, bad patterns, validate refused', (t) => {
  t.is(mod.args.parse({ dest: '/f', content: 'x' }).block, 'x');
  t.regex(JSON.stringify(mod.args.safeParse({ path: '/f', insertafter: 'a', insertbefore: 'b' }).error?.issues), /mutually exclusive: insertbefore\|insertafter/);
  t.regex(JSON.stringify(mod.args.safeParse({ path: '/f', insertafter: '(' }).error?.issues), /expected a valid regular expression/);
  t.regex(JSON.stringify(mod.args.safeParse({ path: '/f', validate: 'visudo -cf %s' }).error?.issues), /'validate' is not supported/);
  t.false(mod.args.safeParse({ path: '/f', create: 'maybe' }).success);
});
