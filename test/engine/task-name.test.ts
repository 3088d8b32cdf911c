// Task names are templated as Ansible shows them (plugins/strategy/linear.py): with the variables of
// the first host that runs the task, the raw name when that fails (undefined variable, loop item).
import test from 'ava';
import { localInventory, run, workspace } from './helpers.js';

test('task and handler names render play, role, inventory and task vars; host output stays text; undefined ones print raw', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1', 'h2'], '[nodes:vars]\nzone=blue');
  ws.write('roles/bridge/defaults/main.yml', 'bridge_name: br-ex\n');
  ws.write('roles/bridge/tasks/main.yml', '- name: "The bridge {{ bridge_name }} in {{ zone }}"\n  debug: { msg: x }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { greeting: hello }
  roles: [bridge]
  tasks:
    - name: "{{ greeting }} from {{ inventory_hostname }}"
      command: "true"
      changed_when: true
      notify: "restart things"
    - name: "not defined: {{ nowhere }}"
      debug: { msg: x }
    - name: "item {{ item }}"
      debug: { msg: "{{ item }}" }
      loop: [a]
    - name: host output
      shell: "echo '{{ '{{' }} greeting }}'"
      register: out
      changed_when: false
    - name: "said {{ out.stdout }}"
      debug: { msg: x }
    - name: "task var {{ local }}"
      debug: { msg: x }
      vars: { local: here }
  handlers:
    - name: "restart things"
      debug: { msg: "{{ greeting }}" }
`);
  t.is(r.summary.exitCode, 0);
  t.deepEqual(r.tasksRun(), [
    'The bridge br-ex in blue',
    'hello from h1',
    'not defined: {{ nowhere }}',
    'item {{ item }}',
    'host output',
    // Text a host sent back is shown as it came, never rendered as a template.
    'said {{ greeting }}',
    'task var here',
    'HANDLER restart things',
  ]);
});
