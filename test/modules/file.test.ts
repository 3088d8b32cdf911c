import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseStat } from '../../src/modules/kit/file-stat.js';
import { planFile } from '../../src/modules/file/file.js';
import { modeArg } from '../../src/modules/kit/mode.js';
import { getModule } from '../../src/modules/all.js';

const load = (name: string) => JSON.parse(readFileSync(new URL(`../../../src/modules/file/cases/${name}.json`, import.meta.url), 'utf8'));
const st = (name: string) => parseStat(load(name));
const args = (a: Record<string, unknown>) => getModule('file')!.args.parse(a);

test('parses recorded stat output of each kind of path', (t) => {
  t.deepEqual(st('absent'), { exists: false });
  const text = st('text-file');
  t.like(text, { exists: true, type: 'file', mode: '640', owner: 'root', group: 'daemon', uid: 0, gid: 1 });
  t.is(text.content!.toString(), 'line one\nline two\n');
  t.deepEqual([...st('binary-file').content!], [0, 1, 255, ...Buffer.from('binary')]);
  t.is(st('empty-file').content!.length, 0);
  t.like(st('directory'), { type: 'directory', mode: '755', content: undefined });
  t.like(st('symlink'), { type: 'link', target: '/tmp/hw-text.txt' });
});

test('a probe without a stat line is a parse error that keeps the output', (t) => {
  const e = t.throws(() => parseStat({ stdout: 'garbage\n', rc: 0 }));
  t.regex(e!.message, /no stat line/);
});

test('modes: octal strings and YAML 1.1 numbers, like Ansible', (t) => {
  t.is(modeArg.parse('0644'), '0644');
  t.is(modeArg.parse('644'), '0644');
  t.is(modeArg.parse(0o644), '0644');
  t.is(modeArg.parse('4755'), '4755');
  t.false(modeArg.safeParse('0999').success);
  t.is(modeArg.parse('u+x'), 'u+x', 'symbolic modes are taken (computed at plan time: symbolic-mode.test.ts)');
  t.false(modeArg.safeParse('u+q').success);
});

test('directory: creates a missing one with its mode, leaves a matching one alone', (t) => {
  const [c] = planFile(st('absent'), args({ path: '/tmp/x', state: 'directory', mode: '0700' }));
  t.deepEqual(c.run, ['mkdir -p -- /tmp/x', 'chmod -- 0700 /tmp/x']);
  t.deepEqual(planFile(st('directory'), args({ path: '/tmp/hw-dir', state: 'directory', mode: '0755', owner: 'root', group: '0' })), []);
  const [m] = planFile(st('directory'), args({ path: '/tmp/hw-dir', state: 'directory', mode: 0o750 }));
  t.deepEqual(m.run, ['chmod -- 0750 /tmp/hw-dir']);
  t.is(m.before, 'mode: 0755\n');
  t.is(m.after, 'mode: 0750\n');
  t.throws(() => planFile(st('text-file'), args({ path: '/tmp/hw-text.txt', state: 'directory' })), { message: /is a file, not a directory/ });
});

test('file/touch/absent states', (t) => {
  t.throws(() => planFile(st('absent'), args({ path: '/tmp/x' })), { message: /is absent, cannot continue/ });
  const [own] = planFile(st('text-file'), args({ path: '/tmp/hw-text.txt', owner: 'root', group: 'root' }));
  t.deepEqual(own.run, ['chown -- :root /tmp/hw-text.txt']);
  t.deepEqual(planFile(st('text-file'), args({ path: '/tmp/hw-text.txt', state: 'touch', mode: '0640' })), []);
  t.deepEqual(planFile(st('absent'), args({ path: '/tmp/n', state: 'touch' }))[0].run, ['touch -- /tmp/n']);
  t.deepEqual(planFile(st('directory'), args({ path: '/tmp/hw-dir', state: 'absent' }))[0].run, ['rm -rf -- /tmp/hw-dir']);
  t.deepEqual(planFile(st('absent'), args({ path: '/tmp/hw-dir', state: 'absent' })), []);
});

test('links: same target is ok, another target is replaced, a file needs force', (t) => {
  t.deepEqual(planFile(st('symlink'), args({ path: '/tmp/hw-link', state: 'link', src: '/tmp/hw-text.txt' })), []);
  t.deepEqual(planFile(st('symlink'), args({ path: '/tmp/hw-link', state: 'link', src: '/etc/hosts' }))[0].run, ['ln -sfn -- /etc/hosts /tmp/hw-link']);
  t.throws(() => planFile(st('text-file'), args({ path: '/tmp/f', state: 'link', src: '/etc/hosts' })), { message: /force: yes/ });
  t.deepEqual(planFile(st('text-file'), args({ path: '/tmp/f', state: 'link', src: '/etc/hosts', force: true }))[0].run, ['rm -rf -- /tmp/f', 'ln -sfn -- /etc/hosts /tmp/f']);
});

test('schema: unknown args, link without src, recurse', (t) => {
  const m = getModule('file')!;
  t.false(m.args.safeParse({ path: '/x', bogus: 1 }).success);
  t.false(m.args.safeParse({ path: '/x', state: 'link' }).success);
  t.true(m.args.safeParse({ path: '/x', state: 'directory', recurse: true }).success);
  t.is(m.args.parse({ path: '/x', recurse: 'yes' }).state, 'directory', "recurse: the default state is directory, as Ansible's");
  t.regex(JSON.stringify(m.args.safeParse({ path: '/x', state: 'file', recurse: true }).error?.issues), /recurse option requires state to be 'directory'/);
  t.false(m.args.safeParse({ state: 'directory' }).success);
});
