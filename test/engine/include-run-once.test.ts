// run_once on include_tasks (kubespray's cinder CSI role), as ansible-playbook 2.14 ran the same play on
// two lab hosts: the include runs for the first host only, and so do the tasks it includes (per loop
// item); its registered result reaches every host. Local hosts, debug only.
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

test('include_tasks with run_once: included for the first host only; register reaches every host', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  ws.write('inc.yml', '- { name: included, debug: { msg: "{{ it }} on {{ inventory_hostname }}" } }\n');
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: inc
      include_tasks: inc.yml
      run_once: true
      loop: [a, b]
      loop_control: { loop_var: it }
      register: r
    - { name: seen, debug: { msg: "{{ r.results | length }}" } }
`);
  t.is(c.summary.exitCode, 0);
  t.deepEqual(c.results.filter((x) => x.task.name === 'included').map((x) => x.result.msg), ['a on h1', 'b on h1']);
  t.deepEqual(c.byTask('seen'), { h1: 'ok', h2: 'ok' });
  t.deepEqual(c.results.filter((x) => x.task.name === 'seen').map((x) => x.result.msg), ['2', '2']);
});
