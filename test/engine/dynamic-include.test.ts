// include_tasks / include_role as Ansible runs them: resolved per host at run time with that host's
// vars and facts, looped, with the include's own when/tags kept on the include; import_* stay static.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { localWorkspace, run, workspace } from './helpers.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';
import { listPlayTasks } from '../../src/cli/list-tasks.js';

const failures = (r: Awaited<ReturnType<typeof run>>) => r.results.filter((x) => x.result.status === 'failed' && !x.result.ignored).map((x) => `${x.task.name}: ${x.result.msg}`);
const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '<none>');

test('include_tasks: a target templated from each host\'s vars and facts, resolved at run time', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  ws.write('inventory.ini', `[nodes]\nh1 ansible_connection=local work=${ws.dir}/h1 flavour=alpha\nh2 ansible_connection=local work=${ws.dir}/h2 flavour=beta\n`);
  ws.write('alpha.yml', '- shell: echo alpha-{{ inventory_hostname }} >> {{ work }}/log\n');
  ws.write('beta.yml', '- shell: echo beta-{{ inventory_hostname }} >> {{ work }}/log\n');
  ws.write('family.yml', '- shell: echo family-{{ ansible_os_family }} >> {{ work }}/log\n');
  const r = await run(ws, `
- hosts: nodes
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - name: by flavour
      include_tasks: "{{ flavour }}.yml"
    - name: the file appears only now (never loaded before the run)
      shell: cp {{ playbook_dir }}/family.yml {{ playbook_dir }}/fam-{{ ansible_os_family | lower }}.yml
      run_once: true
    - name: by a fact
      include_tasks:
        file: "fam-{{ ansible_os_family | lower }}.yml"
`);
  t.deepEqual(failures(r), []);
  const family = String(r.results.find((x) => x.task.name === 'by a fact')!.result.msg).replace(/^included: fam-(.*)\.yml$/, '$1');
  t.regex(family, /^[a-z]+$/);
  t.is(read(`${ws.dir}/h1/log`).toLowerCase(), `alpha-h1\nfamily-${family}\n`);
  t.is(read(`${ws.dir}/h2/log`).toLowerCase(), `beta-h2\nfamily-${family}\n`);
  t.deepEqual(r.byTask('by flavour'), { h1: 'ok', h2: 'ok' });
  const msgs = r.results.filter((x) => x.task.name === 'by flavour').map((x) => x.result.msg);
  t.deepEqual(msgs, ['included: alpha.yml', 'included: beta.yml']);
});

test('loop on include_tasks: loop_var reaches the included tasks; the include\'s when is its own (per item), not re-checked inside', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('step.yml', [
    '- shell: echo {{ step.n }}-{{ greeting }} >> {{ work }}/log',
    '- set_fact: { stop: true }',
    '- shell: echo after-{{ step.n }} >> {{ work }}/log',
    '',
  ].join('\n'));
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { stop: false }
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - name: steps
      include_tasks: step.yml
      loop: [{ n: 1 }, { n: 2 }, { n: 3 }]
      loop_control: { loop_var: step }
      vars: { greeting: "hi {{ step.n }}" }
      when: step.n != 2
`);
  t.deepEqual(failures(r), []);
  // when is evaluated when the include runs; set_fact inside does not skip the rest of the file.
  t.is(read(`${ws.dir}/h1/log`), '1-hi 1\nafter-1\n3-hi 3\nafter-3\n');
});

test('include_role: templated name and tasks_from, looped; the role\'s defaults and handlers come with it', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/r1/defaults/main.yml', 'r1_word: from-defaults\n');
  ws.write('roles/r1/tasks/main.yml', '- shell: echo main-{{ r1_word }}-{{ item }} >> {{ work }}/log\n  notify: r1 done\n');
  ws.write('roles/r1/tasks/extra.yml', '- shell: echo extra-{{ item }} >> {{ work }}/log\n');
  ws.write('roles/r1/handlers/main.yml', '- name: r1 done\n  shell: echo handler >> {{ work }}/log\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { which: r1 }
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - include_role:
        name: "{{ which }}"
        tasks_from: "{{ t | default('main') }}"
      loop: [a, b]
    - include_role: { name: r1, tasks_from: "{{ t }}" }
      vars: { t: extra, item: c }
`);
  t.deepEqual(failures(r), []);
  t.is(read(`${ws.dir}/h1/log`), 'main-from-defaults-a\nmain-from-defaults-b\nextra-c\nhandler\n');
});

// A term with an undefined variable is dropped (Ansible drops a whole dict term holding one: is_template).
test('with_first_found and lookup(first_found) pick the task file per host (the kubespray form, skip: true)', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  ws.write('inventory.ini', `[nodes]\nh1 ansible_connection=local work=${ws.dir}/h1 distro=debian\nh2 ansible_connection=local work=${ws.dir}/h2 distro=plan9\n`);
  ws.write('roles/os/tasks/debian.yml', '- shell: echo debian >> {{ work }}/log\n');
  ws.write('roles/os/tasks/default.yml', '- shell: echo default >> {{ work }}/log\n');
  ws.write('roles/os/tasks/main.yml', `
- name: os tasks
  include_tasks: "{{ included_tasks_file }}"
  with_first_found:
    - "{{ undefined_var }}.yml"
    - files: ["{{ distro }}.yml"]
      skip: true
  loop_control: { loop_var: included_tasks_file }
- name: by lookup
  include_tasks: "{{ lookup('first_found', params) }}"
  vars:
    params:
      files: ["{{ distro }}.yml", default.yml]
      paths: ["{{ role_path }}/tasks"]
`);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  pre_tasks:
    - file: { path: "{{ work }}", state: directory }
  roles: [os]
`);
  t.deepEqual(failures(r), []);
  t.is(read(`${ws.dir}/h1/log`), 'debian\ndebian\n');
  t.is(read(`${ws.dir}/h2/log`), 'default\n');
  t.deepEqual(r.byTask('os tasks'), { h1: 'ok', h2: 'skipped' });
});

test('tags on an include select the include only; apply: tags reach the included tasks', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('inc.yml', '- shell: echo {{ what }} >> {{ work }}/log\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - file: { path: "{{ work }}", state: directory }
      tags: [x]
    - include_tasks: inc.yml
      vars: { what: plain }
      tags: [x]
    - include_tasks:
        file: inc.yml
        apply: { tags: [x] }
      vars: { what: applied }
      tags: [x]
`, { tags: ['x'] });
  t.deepEqual(failures(r), []);
  t.is(read(`${ws.dir}/h1/log`), 'applied\n');
});

test('an include takes only its own keywords: become on include_tasks is refused at file:line; import_* keep all', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('inc.yml', '- debug: { msg: hi }\n');
  const err = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_tasks: inc.yml
      become: true
`).catch((e: Error) => e);
  t.regex(String((err as Error).message), /site\.yml:6:7: 'become' is not a valid attribute for a TaskInclude: set it in apply:/);
  const bad = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_role: { name: x, bogus: 1 }
`).catch((e: Error) => e);
  t.regex(String((bad as Error).message), /Invalid options for include_role: bogus/);
});

test('a templated include that names a missing file fails that host (ignore_errors applies to the include itself)', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('inc.yml', '- shell: "false"\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { f: nowhere }
  tasks:
    - name: missing
      include_tasks: "{{ f }}.yml"
      ignore_errors: true
    - name: present
      include_tasks: "{{ 'inc' }}.yml"
      ignore_errors: true
    - name: not reached
      debug: { msg: x }
`);
  const missing = r.results.find((x) => x.task.name === 'missing')!.result;
  t.is(missing.status, 'failed');
  t.true(missing.ignored);
  t.regex(missing.msg!, /nowhere\.yml/);
  // The include's ignore_errors is not the included task's: its failure stops the host.
  t.is(r.byTask('shell').h1, 'failed');
  t.deepEqual(r.byTask('not reached'), {});
});

test('--list-tasks lists a dynamic include as itself; a templated one loads nothing before the run', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  ws.write('inc.yml', '- debug: { msg: inside }\n');
  const pb = ws.write('site.yml', `
- hosts: all
  tasks:
    - include_tasks: "{{ ansible_os_family | lower }}.yml"
    - ansible.builtin.include_tasks: inc.yml
      tags: [t1]
`);
  const book = await loadPlaybook(pb, { knownModule: isKnownModule });
  t.is(listPlayTasks(book.plays[0]!, { tags: [], skipTags: [] }), '      include_tasks\tTAGS: []\n      ansible.builtin.include_tasks\tTAGS: [t1]\n');
});
