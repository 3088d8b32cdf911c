// `timeout:` as ansible-core 2.14 applies it: the action is ended after N seconds and the task fails
// with Ansible's message; the command it started on the host is killed, not left running.
import test from 'ava';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { localWorkspace, run } from './helpers.js';

test('timeout on a task, inherited from a block and the play: the action fails with Ansible\'s message and its command is killed', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const started = Date.now();
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  timeout: 30
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - name: too slow
      ansible.builtin.shell: sleep 4; touch {{ work }}/late
      timeout: 1
      ignore_errors: true
    - block:
        - name: slow in a block
          command: sleep 4
      timeout: "{{ 1 + 1 }}"
      ignore_errors: true
    - name: in time (the play's 30)
      shell: sleep 0.2; echo done
`);
  const byName = (n: string) => r.results.find((x) => x.task.name === n)!.result;
  t.is(byName('too slow').status, 'failed');
  t.is(byName('too slow').msg, 'The ansible.builtin.shell action failed to execute in the expected time frame (1) and was terminated');
  t.is(byName('slow in a block').msg, 'The command action failed to execute in the expected time frame (2) and was terminated');
  t.is(byName('in time (the play\'s 30)').status, 'changed');
  t.true(Date.now() - started < 7000, 'the run did not wait for the slow commands');
  // The first command would have touched the file after 4 s: it was killed at 1 s.
  await sleep(4500);
  t.false(existsSync(`${ws.dir}/h1/late`));
});
