// A task file that includes itself under a condition - kubespray's retry loop: a block whose rescue
// includes its own file, or an include with a when - runs level by level as in Ansible (include_tasks is
// dynamic); one that could only recurse forever is still refused at load (bad-input corpus, issue18).
// Local hosts, set_fact/debug/fail only.
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

test('a rescue that includes its own file retries until the block succeeds', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('retry.yml', `
- block:
    - set_fact: { tries: "{{ (tries | default(0) | int) + 1 }}" }
    - fail: { msg: "try {{ tries }} failed" }
      when: tries | int < 3
  rescue:
    - include_tasks: retry.yml
`);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_tasks: retry.yml
    - { name: done, debug: { msg: "{{ tries }}" } }
`);
  t.is(c.summary.exitCode, 0);
  t.is(c.results.find((r) => r.task.name === 'done')!.result.msg, '3');
});

test('an include of its own file under a when counts down', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('count.yml', `
- set_fact: { n: "{{ (n | default(0) | int) + 1 }}" }
- include_tasks: count.yml
  when: n | int < 4
`);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_tasks: count.yml
    - { name: done, debug: { msg: "{{ n }}" } }
`);
  t.is(c.summary.exitCode, 0);
  t.is(c.results.find((r) => r.task.name === 'done')!.result.msg, '4');
});

test('a condition that never ends it stops at a depth limit with a clear error', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('forever.yml', `
- include_tasks: forever.yml
  when: true
`);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_tasks: forever.yml
`);
  t.is(c.summary.exitCode, 2);
  t.true(c.results.some((r) => /include_tasks 'forever.yml' nested 100 deep/.test(r.result.msg ?? '')), JSON.stringify(c.results.map((r) => r.result.msg).filter(Boolean).slice(-2)));
});
