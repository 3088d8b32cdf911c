// `run --list-tasks` prints what ansible-playbook 2.14 --list-tasks prints for the same playbook: the
// expected text below was recorded from ansible-playbook on this playbook (ansible is not needed here).
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { workspace } from '../engine/helpers.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const hostwire = (cwd: string, args: string[]) => new Promise<{ code: number; out: string; err: string }>((resolve) =>
  execFile(process.execPath, [CLI, ...args], { cwd }, (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err })));

const PLAYBOOK = `
- hosts: nodes
  tags: [p]
  roles:
    - r1
  tasks:
    - ansible.builtin.command: echo hi
    - command: echo hi
    - name: named
      debug: msg=x
      tags: [t2, t1]
    - local_action: command echo local
    - action: ansible.builtin.debug msg=hi
    - local_action:
        module: debug
        msg: hi
    - ansible.builtin.include_tasks: inc.yml
    - include_tasks: inc.yml
      name: named include
    - ansible.builtin.import_tasks: inc.yml
    - ansible.legacy.include_role: {name: r1}
    - block:
        - debug: msg=b
      name: blk
    - name: only with --tags never
      debug: msg=n
      tags: [never]
    - ansible.builtin.set_fact: {a: 1}
- ansible.builtin.import_playbook: pb2.yml
`;

const RECORDED = `
playbook: pb.yml

  play #1 (nodes): nodes\tTAGS: [p]
    tasks:
      r1 : role task\tTAGS: [p]
      ansible.builtin.shell\tTAGS: [p]
      ansible.builtin.command\tTAGS: [p]
      command\tTAGS: [p]
      named\tTAGS: [p, t1, t2]
      command\tTAGS: [p]
      ansible.builtin.debug\tTAGS: [p]
      debug\tTAGS: [p]
      ansible.builtin.include_tasks\tTAGS: [p]
      named include\tTAGS: [p]
      debug\tTAGS: [p]
      named in inc\tTAGS: [p]
      ansible.legacy.include_role\tTAGS: [p]
      debug\tTAGS: [p]
      ansible.builtin.set_fact\tTAGS: [p]

  play #2 (a): a\tTAGS: []
    tasks:
      meta\tTAGS: []
      debug\tTAGS: []
`;

test('--list-tasks lists as ansible-playbook: include_* as itself, unnamed tasks by the action as written', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  ws.write('inv.ini', '[nodes]\na\nb\n');
  ws.write('inc.yml', '- debug: msg=inc\n- name: named in inc\n  ansible.builtin.command: echo x\n');
  ws.write('roles/r1/tasks/main.yml', '- name: role task\n  debug: msg=r\n- ansible.builtin.shell: echo r\n');
  ws.write('pb2.yml', '- hosts: a\n  gather_facts: no\n  tasks:\n    - meta: flush_handlers\n    - debug: msg=x\n      delegate_to: b\n      delegate_facts: true\n');
  ws.write('pb.yml', PLAYBOOK);
  const r = await hostwire(ws.dir, ['run', '-i', 'inv.ini', '--list-tasks', 'pb.yml']);
  t.is(r.err, '');
  t.is(r.code, 0);
  // ansible-playbook ends with one more empty line (display() of a text ending in a newline).
  t.is(r.out.replace(/\n+$/, '\n'), RECORDED);
});
