// Issue 16: a keyword hostwire accepts must act; one it does not implement is refused at load with
// file:line. diff and throttle act; a bad timeout, ignore_unreachable or module_defaults value, become_method
// other than sudo and debugger other than never are refused; collections is accepted (names resolve anyway).
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const result = (r: Awaited<ReturnType<typeof run>>, name: string) => r.results.find((x) => x.task.name === name)?.result;
const copyTask = (name: string, file: string, extra = '') =>
  `    - name: ${name}\n      copy: { content: "new\\n", dest: "{{ work }}/${file}" }\n${extra}`;

test('diff on a task, block or play overrides --diff for the tasks it covers', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  for (const f of ['a', 'b', 'c', 'd']) ws.write(`h1/${f}`, 'old\n');
  const withCli = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
${copyTask('task says no', 'a', '      diff: false\n')}
    - block:
${copyTask('block says no', 'b').replace(/^/gm, '    ')}
${copyTask('task inside says yes', 'c', '          diff: true\n').replace(/^ {4}- /m, '        - ').replace(/^ {6}copy/m, '          copy')}
      diff: false
${copyTask('plain', 'd')}
`, { diff: true });
  t.is(withCli.summary.exitCode, 0);
  t.deepEqual(result(withCli, 'task says no')?.diff ?? [], []);
  t.deepEqual(result(withCli, 'block says no')?.diff ?? [], []);
  t.true((result(withCli, 'task inside says yes')?.diff ?? []).length > 0);
  t.true((result(withCli, 'plain')?.diff ?? []).length > 0);

  for (const f of ['a', 'b']) ws.write(`h1/${f}`, 'old\n');
  const playDiff = await run(ws, `
- hosts: nodes
  gather_facts: false
  diff: true
  tasks:
${copyTask('from the play', 'a')}
${copyTask('task opts out', 'b', '      diff: no\n')}
`);
  t.true((result(playDiff, 'from the play')?.diff ?? []).length > 0);
  t.is(result(playDiff, 'from the play')?.diffMode, true, 'play diff: true shows the diff without --diff');
  t.is(result(playDiff, 'task opts out')?.diffMode, false);
  t.deepEqual(result(playDiff, 'task opts out')?.diff ?? [], []);
});

// Two hosts take the same lock dir: run together, the second mkdir fails; throttle: 1 runs them in turn.
const lockTask = (extra: string) => `
- hosts: nodes
  gather_facts: false
  tasks:
    - block:
        - name: one at a time
          shell: mkdir "$LOCK" && sleep 0.4 && rmdir "$LOCK"
          environment: { LOCK: "{{ work | dirname }}/lock" }
${extra}`;

test('throttle on a task or a block limits how many hosts run it at once', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2', 'h3']);
  const free = await run(ws, lockTask(''), { forks: 5 });
  t.true(Object.values(free.byTask('one at a time')).includes('failed'), 'without throttle the hosts overlap');
  for (const extra of ['          throttle: 1\n', '      throttle: 1\n']) {
    const r = await run(ws, lockTask(extra), { forks: 5 });
    t.deepEqual(r.byTask('one at a time'), { h1: 'changed', h2: 'changed', h3: 'changed' }, extra);
  }
});

const refused = async (t: import('ava').ExecutionContext, keyword: string, at: 'play' | 'task', expected: RegExp) => {
  const ws = localWorkspace(t, ['h1']);
  const yaml = at === 'play'
    ? `- hosts: nodes\n  gather_facts: false\n  ${keyword}\n  tasks:\n    - debug: { msg: x }\n`
    : `- hosts: nodes\n  gather_facts: false\n  tasks:\n    - debug: { msg: x }\n      ${keyword}\n`;
  const err = await run(ws, yaml).catch((e: Error) => e);
  t.true(err instanceof Error, keyword);
  t.regex((err as Error).message, expected);
};

test('a bad timeout, ignore_unreachable or module_defaults is refused at load, naming file and line', async (t) => {
  await refused(t, 'timeout: soon', 'task', /site\.yml:5:7: 'timeout' must be a whole number of seconds, got "soon"/);
  await refused(t, 'ignore_unreachable: maybe', 'play', /site\.yml:3:3: 'ignore_unreachable' must be a boolean \(true\/false, yes\/no\), got "maybe"/);
  await refused(t, 'module_defaults: [file]', 'play', /site\.yml:3:\d+: 'module_defaults' must be a mapping or a list of mappings/);
});

test('become_method other than sudo and debugger other than never are refused; collections is accepted', async (t) => {
  await refused(t, 'become_method: su', 'task', /site\.yml:5:7: become_method: "su" is not supported: hostwire becomes another user with sudo only/);
  await refused(t, 'debugger: on_failed', 'play', /site\.yml:3:3: debugger: "on_failed" is not supported \(hostwire has no task debugger\)/);
  await refused(t, 'debugger: sometimes', 'task', /debugger: "sometimes" is not supported \(expected one of always, never/);
  await refused(t, 'collections: 3', 'task', /site\.yml:5:7: 'collections' must be a list of collection names/);
  await refused(t, 'throttle: two', 'task', /site\.yml:5:7: 'throttle' must be a whole number of hosts/);
  await refused(t, 'diff: "{{ x }}"', 'task', /'diff' written as a template is not supported/);
  const ws = localWorkspace(t, ['h1']);
  const ok = await run(ws, `
- hosts: nodes
  gather_facts: false
  collections: [community.general]
  become_method: sudo
  debugger: never
  tasks:
    - name: accepted
      debug: { msg: x }
      become_method: sudo
      debugger: never
      collections: [ansible.posix]
`);
  t.is(result(ok, 'accepted')?.status, 'ok');
});
