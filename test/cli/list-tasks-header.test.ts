// --list-tasks / --list-hosts show each play's hosts and name templated with its vars and -e vars, as
// ansible-playbook's executor post-validates a play before listing it. Expected text recorded from
// ansible-playbook 2.14 on this same playbook (ansible is not needed here).
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { workspace } from '../engine/helpers.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const hostwire = (cwd: string, args: string[]) => new Promise<{ code: number; out: string; err: string }>((resolve) =>
  execFile(process.execPath, [CLI, ...args], { cwd }, (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err })));

const PLAYBOOK = `
- name: "Play on {{ target | default('nodes') }}"
  hosts: "{{ target | default('nodes') }}"
  tasks:
    - debug: msg=x
- name: "{{ title }}"
  hosts: "{{ grp }}"
  vars:
    grp: nodes
    title: from play vars
  tasks:
    - debug: msg=y
`;

const TASKS = `
playbook: pb.yml

  play #1 (a): Play on a\tTAGS: []
    tasks:
      debug\tTAGS: []

  play #2 (nodes): from play vars\tTAGS: []
    tasks:
      debug\tTAGS: []
`;

const HOSTS = `
playbook: pb.yml

  play #1 (a): Play on a\tTAGS: []
    pattern: ['a']
    hosts (1):
      a

  play #2 (nodes): from play vars\tTAGS: []
    pattern: ['nodes']
    hosts (2):
      a
      b
`;

test('play headers are templated with play vars and -e vars (--list-tasks, --list-hosts)', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  ws.write('inv.ini', '[nodes]\na\nb\n');
  ws.write('pb.yml', PLAYBOOK);
  const tasks = await hostwire(ws.dir, ['run', '-i', 'inv.ini', '--list-tasks', '-e', 'target=a', 'pb.yml']);
  t.is(tasks.err, '');
  t.is(tasks.out.replace(/\n+$/, '\n'), TASKS);
  const hosts = await hostwire(ws.dir, ['run', '-i', 'inv.ini', '--list-hosts', '-e', 'target=a', 'pb.yml']);
  t.is(hosts.err, '');
  t.is(hosts.out.replace(/\n+$/, '\n'), HOSTS);
});
