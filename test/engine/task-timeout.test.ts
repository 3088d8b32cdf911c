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
          command: sleep 60
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
  // Far below the 60 s sleep even on a loaded machine: the block's command was not waited for.
  t.true(Date.now() - started < 30_000, 'the run did not wait for the slow commands');
  // The first command would have touched the file after 4 s: it was killed at 1 s.
  await sleep(4500);
  t.false(existsSync(`${ws.dir}/h1/late`));
});

// ansible-playbook 2.14 on a lab host, same playbook: include_tasks accepts timeout (TaskInclude's
// VALID_INCLUDE_KEYWORDS) and ignores it - the include returns before the task timer, and tasks of a
// dynamic include do not inherit from it - so both slow tasks ran; import_tasks' timeout reaches its task.
test('timeout on include_tasks is accepted and ignored as Ansible does; on import_tasks it times each imported task', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('slow.yml', '- name: slow\n  command: sleep 2\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: dynamic
      include_tasks: slow.yml
      timeout: 1
    - name: dynamic role-ish
      include_tasks: { file: slow.yml, apply: { tags: [x] } }
      timeout: "{{ nope }}"
    - name: static
      import_tasks: slow.yml
      timeout: 1
`);
  const slow = r.results.filter((x) => x.task.name === 'slow').map((x) => x.result);
  t.deepEqual(slow.map((s) => s.status), ['changed', 'changed', 'failed']);
  t.is(slow[2]?.msg, 'The command action failed to execute in the expected time frame (1) and was terminated');
  t.like(r.summary.stats.h1, { ok: 4, changed: 2, failed: 1 });
});
