// Where import_tasks / include_tasks find their file, as ansible-core 2.14's path_dwim_relative:
// in a role, `include_tasks: tasks/x.yml` (linux-system-roles network writes it so) means the
// role's tasks/x.yml; a nested include finds a file beside the including one; outside a role, a
// nested include names a file beside it or in the playbook's folder.
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const failures = (r: Awaited<ReturnType<typeof run>>) => r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`);
const said = (r: Awaited<ReturnType<typeof run>>) => r.results.flatMap((x) => (x.task.name.startsWith('say') ? [String(x.result.result?.msg)] : []));

test('in a role: tasks/x.yml names the role\'s tasks/x.yml; a nested include finds its neighbour; tasks/ still comes first', async (t) => {
  const ws = localWorkspace(t);
  ws.write('roles/r/tasks/main.yml', [
    '- include_tasks: tasks/set_facts.yml',
    '- import_tasks: tasks/imported.yml',
    '- include_tasks: sub/outer.yml',
    '- include_tasks: both.yml',
  ].join('\n') + '\n');
  ws.write('roles/r/tasks/set_facts.yml', '- name: say included\n  debug: { msg: included via tasks/ }\n');
  ws.write('roles/r/tasks/imported.yml', '- name: say imported\n  debug: { msg: imported via tasks/ }\n');
  ws.write('roles/r/tasks/sub/outer.yml', '- include_tasks: inner.yml\n');
  ws.write('roles/r/tasks/sub/inner.yml', '- name: say inner\n  debug: { msg: inner beside outer }\n');
  ws.write('roles/r/tasks/both.yml', '- name: say both\n  debug: { msg: tasks/ wins }\n');
  ws.write('roles/r/both.yml', '- name: say both\n  debug: { msg: role folder }\n');
  const r = await run(ws, '- hosts: nodes\n  gather_facts: false\n  roles: [r]\n');
  t.deepEqual(failures(r), []);
  t.deepEqual(said(r), ['included via tasks/', 'imported via tasks/', 'inner beside outer', 'tasks/ wins']);
});

test('outside a role: a nested include names a file beside it, else in the playbook folder; a missing one names the path', async (t) => {
  const ws = localWorkspace(t);
  ws.write('tasks/a.yml', '- include_tasks: b.yml\n- include_tasks: tasks/c.yml\n');
  ws.write('tasks/b.yml', '- name: say b\n  debug: { msg: b beside a }\n');
  ws.write('tasks/c.yml', '- name: say c\n  debug: { msg: c from the playbook folder }\n');
  const r = await run(ws, '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - include_tasks: tasks/a.yml\n');
  t.deepEqual(said(r), ['b beside a', 'c from the playbook folder']);
  ws.write('tasks/d.yml', '- include_tasks: nowhere.yml\n');
  // A missing file fails the host that reaches it, as Ansible's "Could not find or access" (AnsibleFileNotFound).
  const missing = await run(ws, '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - include_tasks: tasks/d.yml\n');
  t.is(missing.summary.exitCode, 2);
  const msgs = missing.results.map((x) => x.result.msg ?? '');
  t.true(msgs.some((m) => m.includes(`include_tasks 'nowhere.yml': ${ws.dir}/tasks/nowhere.yml: cannot read file`)), msgs.join('\n'));
});
