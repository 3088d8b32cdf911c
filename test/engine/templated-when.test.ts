// when: with {{ }} through the runner, as ansible-playbook 2.14 runs it: the rendered text is evaluated
// again (it used to count as true whatever x was), and text from a host is never evaluated.
import test from 'ava';
import { localInventory, run, workspace } from './helpers.js';

test('when: "{{ x }} == 1" is evaluated; a condition built from registered text is refused, not run', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  localInventory(ws, ['h1']);
  const r = await run(
    ws,
    `
- hosts: h1
  gather_facts: false
  vars: {x: 2}
  tasks:
    - {name: one, debug: {msg: one}, when: "{{ x }} == 1"}
    - {name: two, debug: {msg: two}, when: "{{ x }} == 2"}
    - name: host text
      command: echo "lookup('pipe', 'touch ${ws.dir}/pwned')"
      register: out
    - {name: rc spliced, debug: {msg: rc}, when: "{{ out.rc }} == 0"}
    - {name: text refused, debug: {msg: text}, when: "{{ out.stdout }} == 1", ignore_errors: true}
`,
  );
  t.deepEqual(r.byTask('one'), { h1: 'skipped' });
  t.deepEqual(r.byTask('two'), { h1: 'ok' });
  t.deepEqual(r.byTask('rc spliced'), { h1: 'ok' });
  const refused = r.results.find((x) => x.task.name === 'text refused')!.result;
  t.is(refused.status, 'failed');
  t.regex(refused.msg ?? '', /builds an expression from data/);
  const { existsSync } = await import('node:fs');
  t.false(existsSync(`${ws.dir}/pwned`), 'the host text was not evaluated');
});
