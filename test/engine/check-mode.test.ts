// check_mode on plays, roles, blocks and tasks (Ansible's inheritance: task > block > role > play),
// check_mode: false inside --check, and ansible_check_mode per task. Every test looks at the files
// the run left (local connection, inside the test's own temp dir only).
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { localInventory, run, workspace } from './helpers.js';

const failures = (r: Awaited<ReturnType<typeof run>>) => r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`);

test('a play with check_mode: true writes nothing; a task with check_mode: false in it does', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  check_mode: true
  tasks:
    - name: real dir
      file: { path: "{{ work }}", state: directory }
      check_mode: false
    - name: copy
      copy: { content: "x\\n", dest: "{{ work }}/copied" }
    - name: touch
      file: { path: "{{ work }}/touched", state: touch }
    - name: command
      command: touch {{ work }}/commanded
    - name: seen
      copy: { content: "mode={{ ansible_check_mode }}\\n", dest: "{{ work }}/mode" }
      check_mode: false
`);
  t.deepEqual(failures(r), []);
  t.is(r.summary.exitCode, 0);
  t.true(existsSync(`${ws.dir}/h1`));
  t.false(existsSync(`${ws.dir}/h1/copied`));
  t.false(existsSync(`${ws.dir}/h1/touched`));
  t.false(existsSync(`${ws.dir}/h1/commanded`));
  t.is(r.byTask('copy').h1, 'changed');
  t.is(r.byTask('command').h1, 'skipped');
  t.is(readFileSync(`${ws.dir}/h1/mode`, 'utf8'), 'mode=False\n');
});

test('block check_mode: true holds back its tasks; a task inside may say false; the block after runs', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - block:
        - name: held
          copy: { content: "held\\n", dest: "{{ work }}/held" }
        - block:
            - name: inner held
              shell: echo inner > {{ work }}/inner
        - name: mode inside
          shell: echo {{ ansible_check_mode }} > {{ work }}/mode-inside
          check_mode: false
      check_mode: true
    - name: after
      copy: { content: "after\\n", dest: "{{ work }}/after" }
`);
  t.deepEqual(failures(r), []);
  t.is(r.summary.exitCode, 0);
  t.false(existsSync(`${ws.dir}/h1/held`));
  t.false(existsSync(`${ws.dir}/h1/inner`));
  t.is(readFileSync(`${ws.dir}/h1/mode-inside`, 'utf8'), 'False\n');
  t.is(readFileSync(`${ws.dir}/h1/after`, 'utf8'), 'after\n');
});

test('under --check, check_mode: false on a block or task really runs; the rest stays untouched', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - block:
        - file: { path: "{{ work }}", state: directory }
        - name: runs
          shell: echo {{ ansible_check_mode }} > {{ work }}/ran
        - name: still checked
          copy: { content: "no\\n", dest: "{{ work }}/checked" }
          check_mode: true
      check_mode: false
    - name: checked by --check
      copy: { content: "no\\n", dest: "{{ work }}/cli-checked" }
    - name: task says run
      copy: { content: "mode={{ ansible_check_mode }}\\n", dest: "{{ work }}/task-ran" }
      check_mode: no
`, { check: true });
  t.deepEqual(failures(r), []);
  t.is(r.summary.exitCode, 0);
  t.is(readFileSync(`${ws.dir}/h1/ran`, 'utf8'), 'False\n');
  t.false(existsSync(`${ws.dir}/h1/checked`));
  t.false(existsSync(`${ws.dir}/h1/cli-checked`));
  t.is(readFileSync(`${ws.dir}/h1/task-ran`, 'utf8'), 'mode=False\n');
  t.is(r.byTask('checked by --check').h1, 'changed');
});

test('check_mode on a roles: entry and on import_role/include_role reaches the role\'s tasks and handlers', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  ws.write('roles/writer/tasks/main.yml', `
- name: "write {{ tag }}"
  copy: { content: "mode={{ ansible_check_mode }}\\n", dest: "{{ work }}/{{ tag }}" }
`);
  ws.write('roles/noter/tasks/main.yml', '- { copy: { content: "x", dest: "{{ work }}/noter" }, notify: checked note }\n');
  ws.write('roles/noter/handlers/main.yml', '- { name: checked note, shell: "echo checked >> {{ work }}/handled" }\n');
  ws.write('roles/plain/tasks/main.yml', '- { command: "true", notify: plain note }\n');
  ws.write('roles/plain/handlers/main.yml', '- { name: plain note, shell: "echo plain >> {{ work }}/handled" }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  pre_tasks:
    - file: { path: "{{ work }}", state: directory }
  roles:
    - role: writer
      tag: entry
      check_mode: true
    - role: noter
      check_mode: true
    - role: plain
  tasks:
    - import_role: { name: writer }
      vars: { tag: imported }
      check_mode: yes
    - include_role: { name: writer }
      vars: { tag: plain }
`);
  t.deepEqual(failures(r), []);
  t.is(r.summary.exitCode, 0);
  t.false(existsSync(`${ws.dir}/h1/entry`));
  t.false(existsSync(`${ws.dir}/h1/imported`));
  t.is(readFileSync(`${ws.dir}/h1/plain`, 'utf8'), 'mode=False\n');
  // The handler of the role listed with check_mode: true was checked too (a skipped command); the plain one ran.
  t.is(r.byTask('checked note').h1, 'skipped');
  t.false(existsSync(`${ws.dir}/h1/noter`));
  t.is(readFileSync(`${ws.dir}/h1/handled`, 'utf8'), 'plain\n');
});

test('check_mode may be a template, rendered per host; a value that is no boolean names file and line', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1', 'h2']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - name: dry on h1 only
      copy: { content: "x\\n", dest: "{{ work }}/out" }
      check_mode: "{{ inventory_hostname == 'h1' }}"
`);
  t.deepEqual(failures(r), []);
  t.is(r.summary.exitCode, 0);
  t.false(existsSync(`${ws.dir}/h1/out`));
  t.true(existsSync(`${ws.dir}/h2/out`));
  const bad = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: bad
      debug: { msg: x }
      check_mode: maybe
`).catch((e: Error) => e);
  t.true(bad instanceof Error);
  t.regex((bad as Error).message, /site\.yml:7:\d+: check_mode: expected a boolean/);
});

test('a command skipped by check mode registers Ansible\'s shape, so later conditions on it work', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: read
      command: cat /nonexistent-{{ work | basename }}
      register: r
    - name: use
      debug: { msg: "{{ r.stdout_lines | length }} {{ r.rc }} {{ r.msg }}" }
      when: r.stdout != "1"
      register: used
    - name: dump
      set_fact: { shape: "{{ r }}" }
`, { check: true });
  t.deepEqual(failures(r), []);
  t.is(r.summary.exitCode, 0);
  t.is(r.byTask('read').h1, 'skipped');
  t.is(r.byTask('use').h1, 'ok');
  const dump = r.results.find((x) => x.task.name === 'dump')!.result.result as { ansible_facts: { shape: Record<string, unknown> } };
  t.deepEqual(dump.ansible_facts.shape, {
    changed: false, skipped: true, failed: false, rc: 0, stdout: '', stderr: '', stdout_lines: [], stderr_lines: [],
    cmd: ['cat', '/nonexistent-h1'], start: null, end: null, delta: null,
    msg: 'Command would have run if not in check mode',
  });
});

test('registered results keep Ansible\'s shape when skipped by when, per loop item, and for an empty loop', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: skipped
      command: "false"
      when: false
      register: s
    - name: items
      debug: { msg: "{{ item }}" }
      loop: [1, 2]
      when: item == 2
      register: l
    - name: none
      debug: { msg: x }
      loop: []
      register: e
    - name: dump
      set_fact: { shapes: { s: "{{ s }}", l: "{{ l }}", e: "{{ e }}" } }
`);
  t.deepEqual(failures(r), []);
  const shapes = (r.results.find((x) => x.task.name === 'dump')!.result.result as { ansible_facts: { shapes: Record<string, Record<string, unknown>> } }).ansible_facts.shapes;
  t.deepEqual(shapes.s, { changed: false, skipped: true, skip_reason: 'Conditional result was False' });
  const items = shapes.l.results as Record<string, unknown>[];
  t.deepEqual(items[0], { changed: false, skipped: true, skip_reason: 'Conditional result was False', item: 1, ansible_loop_var: 'item' });
  t.is(items[1].msg, 2);
  t.is(items[1].item, 2);
  t.is(shapes.l.skipped, false);
  t.is(shapes.l.msg, 'All items completed');
  t.deepEqual(shapes.e, { changed: false, skipped: true, skipped_reason: 'No items in the list', results: [] });
});
