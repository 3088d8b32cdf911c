// module_defaults as ansible-core 2.14 applies it. The playbook below was run with ansible-playbook
// 2.14.18 on a lab host (-e work=/root/md): the modes and the failure are what it gave (r 611, a 600,
// b 644, d 640, e 602; "file (.../c) is absent"), and the recap ok=9 changed=7 ignored=1.
import test from 'ava';
import { statSync } from 'node:fs';
import { localWorkspace, run } from './helpers.js';

const SITE = `
- hosts: nodes
  gather_facts: false
  vars:
    m: '0604'
  module_defaults:
    file: { state: touch, mode: '0600' }
  pre_tasks:
    - name: dir
      ansible.builtin.file: { path: "{{ work }}", state: directory, mode: '0755' }
  roles:
    - role: r
      module_defaults:
        ansible.builtin.file: { mode: '0611', state: touch }
  tasks:
    - name: play default
      ansible.builtin.file: { path: "{{ work }}/a" }
    - name: own args win
      file: { path: "{{ work }}/b", mode: '0644' }
    - block:
        - name: block entry replaces the play's whole
          file: { path: "{{ work }}/c" }
          ignore_errors: true
        - name: block mode
          file: { path: "{{ work }}/d", state: touch }
      module_defaults:
        ansible.legacy.file: { mode: '0640' }
    - name: templated, list form
      copy: { content: "x\\n", dest: "{{ work }}/e" }
      module_defaults:
        - copy: { mode: "{{ m }}" }
        - ansible.builtin.copy: { mode: '0602', owner: "{{ nobody | default(omit) }}" }
`;

test('module_defaults on play, role, block and task: short and FQCN names match, inner levels replace, own args win', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/r/tasks/main.yml', '- name: role file\n  file: { path: "{{ work }}/r", state: touch }\n');
  const r = await run(ws, SITE);
  const mode = (f: string) => (statSync(`${ws.dir}/h1/${f}`).mode & 0o777).toString(8);
  t.deepEqual(['r', 'a', 'b', 'd', 'e'].map((f) => `${f} ${mode(f)}`), ['r 611', 'a 600', 'b 644', 'd 640', 'e 602']);
  const c = r.results.find((x) => x.task.name === "block entry replaces the play's whole")!.result;
  t.like(c, { status: 'failed', ignored: true });
  t.regex(c.msg ?? '', /file \(.*\/h1\/c\) is absent, cannot continue/);
  t.like(r.summary.stats.h1, { ok: 7, changed: 6, failed: 0, ignored: 1 });
});

test('module_defaults: action groups and a bad shape are refused at load, naming file and line', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const refused = async (kw: string, expected: RegExp) => {
    const err = await run(ws, `- hosts: nodes\n  gather_facts: false\n  tasks:\n    - debug: { msg: x }\n      module_defaults: ${kw}\n`).catch((e: Error) => e);
    t.true(err instanceof Error, kw);
    t.regex((err as Error).message, expected);
  };
  await refused("{ group/aws: { region: x } }", /site\.yml:5:26: module_defaults 'group\/aws' is not supported: ansible\.builtin's group 'aws' only names modules of other collections/);
  await refused('[ping]', /site\.yml:5:\d+: 'module_defaults' must be a mapping or a list of mappings/);
  await refused('{ file: [a] }', /site\.yml:5:26: module_defaults for 'file' must be a mapping of arguments/);
});
