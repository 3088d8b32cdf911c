// Task keywords as Ansible parses them: FQCN includes/imports, action/local_action, delegate_facts,
// play-level run_once. Real playbooks through the local transport in a temp dir.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { localWorkspace, run, workspace } from './helpers.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';

test('ansible.builtin. and ansible.legacy. forms of import_playbook, import/include_tasks and import/include_role', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('inc.yml', '- name: from {{ via }}\n  ansible.builtin.command: "touch {{ work }}-{{ via }}"\n');
  ws.write('roles/r/tasks/main.yml', '- name: role r\n  ansible.legacy.command: "touch {{ work }}-role-{{ via }}"\n');
  ws.write('second.yml', `
- hosts: nodes
  gather_facts: false
  tasks:
    - ansible.legacy.import_tasks: inc.yml
      vars: { via: legacy-import }
`);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - ansible.builtin.import_tasks: inc.yml
      vars: { via: import }
    - ansible.builtin.include_tasks: inc.yml
      vars: { via: include }
    - ansible.builtin.import_role: { name: r }
      vars: { via: import }
    - ansible.legacy.include_role: { name: r }
      vars: { via: include }
- ansible.builtin.import_playbook: second.yml
`);
  t.is(r.summary.exitCode, 0);
  for (const f of ['import', 'include', 'role-import', 'role-include', 'legacy-import']) t.true(existsSync(`${ws.dir}/h1-${f}`), f);
});

test('include_tasks of another collection is not the builtin one: refused, named', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  ws.write('inc.yml', '- debug: msg=x\n');
  const pb = ws.write('site.yml', '- hosts: all\n  tasks:\n    - community.general.include_tasks: inc.yml\n');
  const err = await t.throwsAsync(loadPlaybook(pb, { knownModule: isKnownModule }));
  t.regex(err?.message ?? '', /couldn't resolve module\/action 'community\.general\.include_tasks'/);
});

test('action: and local_action: in string and mapping forms; local_action runs on the controller', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: action string
      action: ansible.builtin.command touch {{ work }}-action-string
    - name: action mapping
      action: { module: copy, dest: "{{ work }}-action-map", content: "map\\n" }
    - name: local string
      local_action: copy dest={{ work }}-local-string content=local
    - name: local mapping, args beside the module string
      local_action:
        module: command touch {{ work }}-local-map
        creates: "{{ work }}-local-map"
    - name: args merge under the module's own
      action: copy content=own
      args: { dest: "{{ work }}-args", content: ignored }
`);
  t.is(r.summary.exitCode, 0);
  t.true(existsSync(`${ws.dir}/h1-action-string`));
  t.is(readFileSync(`${ws.dir}/h1-action-map`, 'utf8'), 'map\n');
  t.is(readFileSync(`${ws.dir}/h1-local-string`, 'utf8'), 'local');
  t.true(existsSync(`${ws.dir}/h1-local-map`));
  t.is(readFileSync(`${ws.dir}/h1-args`, 'utf8'), 'own');
  const delegated = (name: string) => r.results.find((x) => x.task.name === name)?.result.delegatedTo;
  t.is(delegated('local string'), 'localhost');
  t.is(delegated('local mapping, args beside the module string'), 'localhost');
  t.is(delegated('action string'), undefined);
});

test('action forms that Ansible refuses are refused with the reason', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  const load = (tasks: string) => loadPlaybook(ws.write('site.yml', `- hosts: all\n  tasks:\n${tasks}`), { knownModule: isKnownModule });
  const msg = async (tasks: string) => (await t.throwsAsync(load(tasks)))?.message ?? '';
  t.regex(await msg('    - action: command echo\n      local_action: command echo\n'), /action and local_action are mutually exclusive/);
  t.regex(await msg('    - action: command echo\n      debug: msg=x\n'), /conflicting action statements: action, debug/);
  t.regex(await msg('    - local_action: { msg: x }\n'), /needs 'module: <name>'/);
  t.regex(await msg('    - action: nosuchmodule a=b\n'), /couldn't resolve module\/action 'nosuchmodule'/);
});

test('delegate_facts: facts a delegated task sets go to the delegate, its register stays with the host', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - set_fact: { where: delegated }
      when: inventory_hostname == 'h1'
      delegate_to: h2
      delegate_facts: true
      register: setting
    - set_fact: { plain: here }
      when: inventory_hostname == 'h1'
      delegate_to: h2
- hosts: h2
  gather_facts: false
  tasks:
    - assert: { that: ["where == 'delegated'", "plain is not defined", "setting.skipped"] }
- hosts: h1
  gather_facts: false
  tasks:
    - assert: { that: ["where is not defined", "plain == 'here'", "setting.ansible_facts.where == 'delegated'"] }
`);
  t.is(r.summary.exitCode, 0, JSON.stringify(r.results.filter((x) => x.result.status === 'failed').map((x) => x.result.msg)));
  t.is(r.results.filter((x) => x.task.module === 'assert').length, 2);
});

test('run_once on the play runs each task on the first host only; a task can turn it off', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  run_once: true
  tasks:
    - name: once
      command: "touch {{ work }}-once"
    - name: block inherits
      block:
        - name: inner
          command: "touch {{ work }}-inner"
    - name: every host
      command: "touch {{ work }}-every"
      run_once: false
`);
  t.is(r.summary.exitCode, 0);
  t.deepEqual(Object.keys(r.byTask('once')), ['h1']);
  t.deepEqual(Object.keys(r.byTask('inner')), ['h1']);
  t.true(existsSync(`${ws.dir}/h1-once`) && !existsSync(`${ws.dir}/h2-once`));
  t.true(existsSync(`${ws.dir}/h1-every`) && existsSync(`${ws.dir}/h2-every`));
});
