// throttle written as a template (kubespray's etcd handlers: "{{ groups['etcd'] | length // 2 }}"): as
// ansible-core 2.14's strategy, rendered with the host's vars when the task is queued, then int().
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

// Two hosts take the same lock dir: run together, the second mkdir fails; throttle 1 runs them in turn.
const LOCKED = 'shell: mkdir "$LOCK" && sleep 0.4 && rmdir "$LOCK"\n      environment: { LOCK: "{{ work | dirname }}/lock" }';

test('a templated throttle on a task and on a handler limits how many hosts run it at once', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2', 'h3']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: one at a time
      ${LOCKED}
      throttle: "{{ groups['nodes'] | length // 3 }}"
    - name: poke
      command: "true"
      changed_when: true
      notify: handler one at a time
  handlers:
    - name: handler one at a time
      ${LOCKED}
      throttle: "{{ (groups['nodes'] | length) - 2 }}"
`, { forks: 5 });
  t.deepEqual(r.byTask('one at a time'), { h1: 'changed', h2: 'changed', h3: 'changed' });
  t.deepEqual(r.byTask('handler one at a time'), { h1: 'changed', h2: 'changed', h3: 'changed' });
  const free = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: one at a time
      ${LOCKED}
      throttle: "{{ 0 }}"
`, { forks: 5 });
  t.true(Object.values(free.byTask('one at a time')).includes('failed'), 'a throttle rendered 0 limits nothing: the hosts overlap');
});

test('a throttle that renders to no integer stops the run naming the task', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const err = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - debug: { msg: x }
      throttle: "{{ 'two' }}"
`).catch((e: Error) => e);
  t.true(err instanceof Error);
  t.regex((err as Error).message, /site\.yml:5:7: Failed to convert the throttle value to an integer/);
});
