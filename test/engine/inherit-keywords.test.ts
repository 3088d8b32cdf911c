// ignore_errors, no_log, delegate_to on blocks, role entries, imports and plays reach the tasks inside,
// as Ansible's attribute inheritance does: task over block over role over play. They used to be parsed
// and dropped (a failing task inside `block: ... ignore_errors: true` failed the host).
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const result = (r: Awaited<ReturnType<typeof run>>, name: string) => r.results.find((x) => x.task.name === name)?.result;

test('block ignore_errors reaches its tasks; a nested block or the task itself overrides it', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - block:
        - name: ignored by the block
          command: "false"
        - block:
            - name: inner block says no
              command: "false"
          ignore_errors: false
      ignore_errors: true
    - name: not reached
      debug: { msg: x }
`);
  t.is(result(r, 'ignored by the block')?.status, 'failed');
  t.true(result(r, 'ignored by the block')?.ignored);
  t.is(result(r, 'inner block says no')?.status, 'failed');
  t.falsy(result(r, 'inner block says no')?.ignored);
  t.is(result(r, 'not reached'), undefined);
});

test('no_log on a play, a block and a role entry hides the task results inside; a task can say no_log: false', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/secretive/tasks/main.yml', '- name: role task\n  command: echo role\n');
  ws.write('roles/secretive/handlers/main.yml', '- name: h\n  command: echo h\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  roles:
    - role: secretive
      no_log: true
  tasks:
    - block:
        - name: in block
          command: echo block
      no_log: true
    - name: plain
      command: echo plain
- hosts: nodes
  gather_facts: false
  no_log: true
  tasks:
    - name: play-wide
      command: echo play
    - name: says no
      command: echo shown
      no_log: false
`);
  t.true(result(r, 'role task')?.noLog);
  t.true(result(r, 'in block')?.noLog);
  t.falsy(result(r, 'plain')?.noLog);
  t.true(result(r, 'play-wide')?.noLog);
  t.is(result(r, 'says no')?.noLog, false);
});

test('role entry and import_tasks ignore_errors; play ignore_errors', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/flaky/tasks/main.yml', '- name: role fails\n  command: "false"\n');
  ws.write('fails.yml', '- name: imported fails\n  command: "false"\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  roles:
    - role: flaky
      ignore_errors: true
  tasks:
    - import_tasks: fails.yml
      ignore_errors: yes
    - name: reached
      debug: { msg: x }
- hosts: nodes
  gather_facts: false
  ignore_errors: true
  tasks:
    - name: play ignores
      command: "false"
    - name: reached too
      debug: { msg: x }
`);
  t.true(result(r, 'role fails')?.ignored);
  t.is(result(r, 'reached')?.status, 'ok');
  t.true(result(r, 'play ignores')?.ignored);
  t.is(result(r, 'reached too')?.status, 'ok');
  t.is(r.summary.stats.h1?.failed, 0);
});

test('delegate_to on a block and a role entry delegates the tasks inside', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  ws.write('roles/d/tasks/main.yml', '- name: role delegated\n  command: echo {{ inventory_hostname }}\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  roles:
    - role: d
      delegate_to: h2
  tasks:
    - block:
        - name: block delegated
          command: echo {{ inventory_hostname }}
        - name: own delegate wins
          command: echo x
          delegate_to: localhost
      delegate_to: h2
`);
  t.is(result(r, 'role delegated')?.delegatedTo, 'h2');
  t.is(result(r, 'block delegated')?.delegatedTo, 'h2');
  const h1 = r.results.find((x) => x.task.name === 'block delegated' && x.result.host === 'h1')?.result;
  t.is(h1?.stdout, 'h1');
  t.is(result(r, 'own delegate wins')?.delegatedTo, 'localhost');
});

test('remote_user must be a string (play, role entry, block, task), refused at its line', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const err = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - command: id -un
      remote_user: [a, b]
`).catch((e: Error) => e);
  t.regex(String((err as Error).message), /site\.yml:6:7: 'remote_user' must be a string, got a list/);
  // On a local connection the login does not apply (Ansible's local plugin runs as the controller's user).
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  remote_user: nobody-here
  tasks:
    - name: local
      command: echo ok
      remote_user: nobody-either
`);
  t.is(result(r, 'local')?.status, 'changed');
});

test('ignore_errors as a template is rendered per host; any_errors_fatal on a block ends the play for every host', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: templated
      command: "{{ 'false' if inventory_hostname == 'h1' else 'true' }}"
      ignore_errors: "{{ inventory_hostname == 'h1' }}"
- hosts: nodes
  gather_facts: false
  tasks:
    - block:
        - name: fails on h1 only
          command: "{{ 'false' if inventory_hostname == 'h1' else 'true' }}"
      any_errors_fatal: true
    - name: after the fatal block
      debug: { msg: x }
`);
  const templated = r.results.filter((x) => x.task.name === 'templated').map((x) => [x.result.host, x.result.status, x.result.ignored ?? false]);
  t.deepEqual(templated.sort(), [['h1', 'failed', true], ['h2', 'changed', false]]);
  t.deepEqual(r.byTask('fails on h1 only'), { h1: 'failed', h2: 'changed' });
  t.deepEqual(r.byTask('after the fatal block'), {}, 'h2 did not go on after h1 failed');
});
