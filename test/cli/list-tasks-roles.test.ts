// Roles named as Ansible 2.14 finds them (RoleDefinition._load_role_path) and --list-tasks as it lists
// them: the expected text below was recorded from ansible-playbook 2.14 --list-tasks on this same
// fixture (ansible is not needed here). Covered: a sub-path below the playbook's roles/ (group/r1), a
// meta dependency found beside the role that lists it (sib), ansible.cfg roles_path with a $VARIABLE
// (r3), a path relative to the playbook (../../shared/common), a collection role by FQCN and through
// the play's collections:, tasks under rescue:/always: not listed, a named include_role without the
// role prefix, and the not-found error naming every place looked.
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { workspace, type Workspace } from '../engine/helpers.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const hostwire = (cwd: string, args: string[], env: NodeJS.ProcessEnv) => new Promise<{ code: number; out: string; err: string }>((resolve) =>
  execFile(process.execPath, [CLI, ...args], { cwd, env }, (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err })));

const PLAYBOOK = `
- name: roles by path
  hosts: nodes
  gather_facts: false
  roles:
    - group/r1
    - role: r3
  tasks:
    - name: shared by a relative path
      import_role:
        name: ../../shared/common
    - import_role:
        name: acme.net.bridge
    - name: a block
      block:
        - name: in block
          debug: msg=b
      rescue:
        - name: in rescue
          debug: msg=r
          tags: [tests::cleanup]
      always:
        - name: in always
          debug: msg=a
          tags: [always]
    - include_role:
        name: r4
    - import_role:
        name: r4
- name: collections keyword
  hosts: nodes
  gather_facts: false
  collections: [acme.net]
  roles:
    - bridge
`;

const RECORDED = `
playbook: play/nested/site.yml

  play #1 (nodes): roles by path\tTAGS: []
    tasks:
      sib : sib task\tTAGS: []
      group/r1 : r1 task\tTAGS: []
      r3 : r3 task\tTAGS: []
      ../../shared/common : common task\tTAGS: []
      acme.net.bridge : bridge task\tTAGS: []
      in block\tTAGS: []
      include_role\tTAGS: []
      r4 : r4 task\tTAGS: []
      included again by name\tTAGS: []
      include_role\tTAGS: []
      r4 : named include_tasks\tTAGS: []

  play #2 (nodes): collections keyword\tTAGS: []
    tasks:
      acme.net.bridge : bridge task\tTAGS: []
`;

const task = (name: string) => `- name: ${name}\n  debug: msg=x\n`;

function fixture(ws: Workspace): NodeJS.ProcessEnv {
  ws.write('inv.ini', '[nodes]\na\n');
  ws.write('ansible.cfg', '[defaults]\nroles_path = $HW_TEST_BASE/roles:$HW_TEST_BASE/extra\ncollections_path = ./colls\n');
  ws.write('play/nested/site.yml', PLAYBOOK);
  ws.write('roles/group/r1/tasks/main.yml', task('r1 task'));
  ws.write('roles/group/r1/meta/main.yml', 'dependencies:\n  - sib\n');
  ws.write('roles/group/sib/tasks/main.yml', task('sib task'));
  ws.write('extra/r3/tasks/main.yml', task('r3 task'));
  ws.write('shared/common/tasks/main.yml', task('common task'));
  ws.write('colls/ansible_collections/acme/net/roles/bridge/tasks/main.yml', task('bridge task'));
  ws.write('play/nested/roles/r4/tasks/main.yml', `${task('r4 task')}- name: included again by name\n  include_role:\n    name: r3\n- include_role:\n    name: r3\n- name: named include_tasks\n  include_tasks: other.yml\n`);
  ws.write('play/nested/roles/r4/tasks/other.yml', '- debug: msg=other\n');
  const env: NodeJS.ProcessEnv = { ...process.env, HW_TEST_BASE: ws.dir };
  for (const k of ['ANSIBLE_CONFIG', 'ANSIBLE_ROLES_PATH', 'ANSIBLE_COLLECTIONS_PATH', 'ANSIBLE_COLLECTIONS_PATHS']) delete env[k];
  return env;
}

test('roles by sub-path, relative path, roles_path, meta dependency folder and collection are listed as ansible-playbook lists them', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  const env = fixture(ws);
  const r = await hostwire(ws.dir, ['run', '-i', 'inv.ini', '--list-tasks', 'play/nested/site.yml'], env);
  t.is(r.err, '');
  t.is(r.code, 0);
  t.is(r.out.replace(/\n+$/, '\n'), RECORDED);
});

test('a role found nowhere is refused naming the role, the entry and every place looked (as Ansible)', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  const env = fixture(ws);
  ws.write('play/missing.yml', '- hosts: nodes\n  gather_facts: false\n  roles:\n    - group/nope\n');
  const r = await hostwire(ws.dir, ['run', '-i', 'inv.ini', '--syntax-check', 'play/missing.yml'], env);
  t.is(r.code, 5);
  const d = ws.dir;
  t.is(r.err.trim(), `ERROR! ${d}/play/missing.yml:4:7: the role 'group/nope' was not found in ${d}/play/roles:${d}/roles:${d}/extra:${d}/play`);
});
