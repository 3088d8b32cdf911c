import test from 'ava';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStat } from '../../src/modules/kit/file-stat.js';
import { planContent } from '../../src/modules/kit/content-plan.js';
import { getModule } from '../../src/modules/all.js';
import type { ModuleContext } from '../../src/modules/types.js';

const load = (name: string) => JSON.parse(readFileSync(new URL(`../../../src/modules/file/cases/${name}.json`, import.meta.url), 'utf8'));
const st = (name: string) => parseStat(load(name));
const ctx = (baseDir: string, render = (s: string) => s) => ({ host: 'h1', baseDir, render, vars: {} }) as unknown as ModuleContext;

test('same bytes and attributes: no change; attributes only: chmod/chown without a rewrite', (t) => {
  const text = st('text-file');
  t.deepEqual(planContent(text, { path: '/tmp/hw-text.txt', content: 'line one\nline two\n', mode: '0640', group: 'daemon' }), []);
  const [c] = planContent(text, { path: '/tmp/hw-text.txt', content: 'line one\nline two\n', mode: '0644' });
  t.is(c.write, undefined);
  t.deepEqual(c.run, ['chmod -- 0644 /tmp/hw-text.txt']);
});

test('new content: one atomic write with old/new text for --diff; backup goes first', (t) => {
  const [w] = planContent(st('text-file'), { path: '/tmp/hw-text.txt', content: 'line one\n', mode: '0600' });
  t.is(w.before, 'line one\nline two\n');
  t.is(w.after, 'line one\n');
  t.deepEqual(w.write?.content, Buffer.from('line one\n'));
  t.is(w.write?.mode, '0600');
  const [b, w2] = planContent(st('text-file'), { path: '/tmp/hw-text.txt', content: 'x', backup: true });
  // Ansible's backup_local name: <path>.<pid>.<date>~ (the shell's pid, the host's local time)
  t.deepEqual(b.run, [`{ b=/tmp/hw-text.txt."$$.$(date +%Y-%m-%d@%H:%M:%S)~" && cp -p -- /tmp/hw-text.txt "$b"; }`, `printf '%s' "$b"`]);
  t.truthy(w2.write);
  const created = planContent(st('absent'), { path: '/etc/x.d/y.conf', content: 'x', createParent: true, backup: true });
  t.deepEqual(created.map((c) => c.summary), ['create directory /etc/x.d', 'create /etc/x.d/y.conf']);
  t.is(created[1].before, '');
});

test('binary content is compared byte for byte and summarised in the diff', (t) => {
  const same = Buffer.from([0, 1, 255, ...Buffer.from('binary')]);
  t.deepEqual(planContent(st('binary-file'), { path: '/tmp/hw-bin', content: same }), []);
  const [w] = planContent(st('binary-file'), { path: '/tmp/hw-bin', content: Buffer.from([0, 2]) });
  t.is(w.before, '(binary content, 9 bytes)\n');
});

test('a directory or symlink at dest is refused', (t) => {
  t.throws(() => planContent(st('directory'), { path: '/tmp/hw-dir', content: 'x' }), { message: /is a directory, not a regular file/ });
  t.throws(() => planContent(st('symlink'), { path: '/tmp/hw-link', content: 'x' }), { message: /symlink/ });
});

test('copy reads src from the role files/ dir; template renders from templates/', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hw-copy-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'files'));
  mkdirSync(join(dir, 'templates'));
  writeFileSync(join(dir, 'files', 'a.conf'), 'line one\nline two\n');
  writeFileSync(join(dir, 'templates', 'b.j2'), 'mtu={{ mtu }}\n');
  const copy = getModule('copy')!;
  t.deepEqual(copy.plan!(st('text-file'), copy.args.parse({ dest: '/tmp/hw-text.txt', src: 'a.conf' }), ctx(dir)), []);
  t.throws(() => copy.plan!(st('absent'), copy.args.parse({ dest: '/x', src: 'missing.conf' }), ctx(dir)), { message: /could not find src 'missing.conf'/ });
  t.deepEqual(copy.plan!(st('text-file'), copy.args.parse({ dest: '/tmp/hw-text.txt', content: 'new', force: false }), ctx(dir)), []);
  const tpl = getModule('template')!;
  const [w] = tpl.plan!(st('absent'), tpl.args.parse({ src: 'b.j2', dest: '/etc/b.conf' }), ctx(dir, (s) => s.replace('{{ mtu }}', '1400')));
  t.is(w.after, 'mtu=1400\n');
  t.false(copy.args.safeParse({ dest: '/x' }).success);
  t.false(copy.args.safeParse({ dest: '/x', content: 'a', src: 'b' }).success);
});
