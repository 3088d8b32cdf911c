// replace against ansible-core 2.14 itself: each recorded case holds the file as read on a lab host
// and the file Ansible's replace left with the same arguments (and its message); hostwire's plan must
// write exactly those bytes, say as many replacements, or fail where Ansible failed.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { getModule } from '../../src/modules/all.js';
import { parseStat } from '../../src/modules/kit/file-stat.js';
import { expandTemplate } from '../../src/modules/kit/py-regex.js';
import { replaceText } from '../../src/modules/replace/edit.js';
import type { ModuleContext } from '../../src/modules/types.js';

const dir = new URL('../../../src/modules/replace/cases/', import.meta.url);
const mod = getModule('replace')!;
const file = (text: string) => ({ stdout: `stat:regular file|644|root|root|0|0\ncontent:${Buffer.from(text).toString('base64')}\ncontent_rc:0\n`, rc: 0 });

for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const c = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
  test(`${name}: as Ansible left the file (${c.note})`, (t) => {
    const args = mod.args.parse(c.args);
    const st = parseStat({ stdout: c.stdout, rc: c.rc });
    const plan = () => mod.plan!(st, args, { host: 'h' } as ModuleContext);
    if (c.ansible.failed) {
      t.throws(plan, { message: c.ansible.msg });
      return;
    }
    const changes = plan();
    t.is(changes.length > 0, c.ansible.changed, 'changed as Ansible');
    const write = changes.find((ch) => ch.write);
    t.is((write ? Buffer.from(write.write!.content) : st.content!).toString('base64'), c.ansible.file_after);
    if (write) t.is(write.summary, `${c.ansible.msg} in ${c.args.path}`);
  });
}

test("Python's replacement template: groups, \\g<>, escapes, unknown letter escapes refused", (t) => {
  const m = Object.assign(['ab', 'a', undefined], { index: 0, groups: { x: 'a' } });
  t.is(expandTemplate('\\1-\\g<1>-\\g<x>-\\2-\\n\\t\\\\-\\.', m), 'a-a-a--\n\t\\-\\.');
  t.throws(() => expandTemplate('\\q', m), { message: /bad escape \\q/ });
  t.throws(() => expandTemplate('\\5', m), { message: /invalid group reference 5/ });
  t.throws(() => expandTemplate('\\g<nope>', m), { message: /invalid group reference nope/ });
});

test("a file from the host cannot hang the run: a backtracking pattern over it fails within the bound, naming the file", (t) => {
  const started = Date.now();
  t.throws(() => replaceText(`${'a'.repeat(40)}!`, { regexp: '(a+)+$', replace: '' }, '/etc/x'), { message: /replace in \/etc\/x: the regular expression .* did not finish within 5 s/ });
  t.true(Date.now() - started < 10_000);
});

test('a file that is not valid UTF-8 is refused, not rewritten with replacement characters', (t) => {
  const st = parseStat({ stdout: `stat:regular file|644|root|root|0|0\ncontent:${Buffer.from([0x61, 0xff, 0x0a]).toString('base64')}\ncontent_rc:0\n`, rc: 0 });
  t.throws(() => mod.plan!(st, mod.args.parse({ path: '/f', regexp: 'a', replace: 'b' }), { host: 'h' } as ModuleContext), { message: /\/f is not valid utf-8 text/ });
  const latin = mod.plan!(st, mod.args.parse({ path: '/f', regexp: 'a', replace: 'b', encoding: 'latin-1' }), { host: 'h' } as ModuleContext);
  t.deepEqual([...Buffer.from(latin[0]!.write!.content)], [0x62, 0xff, 0x0a]);
});

test('replace arguments: aliases, a required pattern, validate refused; attributes alone when no text changes', (t) => {
  t.is(mod.args.parse({ dest: '/f', regexp: 'a' }).replace, '');
  t.false(mod.args.safeParse({ path: '/f' }).success);
  t.regex(JSON.stringify(mod.args.safeParse({ path: '/f', regexp: 'a', validate: 'x %s' }).error?.issues), /'validate' is not supported/);
  const st = parseStat(file('x\n'));
  t.deepEqual(mod.plan!(st, mod.args.parse({ path: '/f', regexp: 'nomatch', mode: '0600' }), { host: 'h' } as ModuleContext).map((c) => c.run), [['chmod -- 0600 /f']]);
});
