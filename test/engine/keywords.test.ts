// Keywords that used to be accepted and silently ignored: environment (play, block, role, task),
// vars/when on import_playbook, loop on import_*, vars_prompt. Each works or is refused clearly.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { localWorkspace, run } from './helpers.js';

const failures = (r: Awaited<ReturnType<typeof run>>) => r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`);

test('environment from play, block and task reaches command/shell, quoted; inner wins per name', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  environment: { A: "a b", B: play }
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - block:
        - name: env
          shell: printf '%s|%s|%s' "$A" "$B" "$C" > {{ work }}/env
          environment:
            C: "'; touch {{ work }}/pwned; '"
      environment: { B: "{{ inventory_hostname }}" }
    - name: debug is fine with an environment
      debug: { msg: ok }
`);
  t.deepEqual(failures(r), []);
  t.is(readFileSync(`${ws.dir}/h1/env`, 'utf8'), `a b|h1|'; touch ${ws.dir}/h1/pwned; '`);
  t.false(existsSync(`${ws.dir}/h1/pwned`));
});

test('environment on a module whose tools would need it is refused, not dropped; a bad name is refused', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: apt
      apt: { name: curl, state: present }
      environment: { http_proxy: "http://proxy:3128" }
      check_mode: true  # never installs on this machine, whatever happens
      ignore_errors: true
    - name: bad name
      command: "true"
      environment: { "A-B": x }
      ignore_errors: true
`);
  t.deepEqual(failures(r), [
    `apt: ${ws.dir}/site.yml:5:7: environment is not supported for the 'apt' module (hostwire passes it to command and shell; this module's tools would need it): http_proxy`,
    `bad name: ${ws.dir}/site.yml:10:7: environment: 'A-B' is not a valid environment variable name`,
  ]);
});

test('vars and when on import_playbook apply to the imported plays', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('sub.yml', `
- hosts: nodes
  gather_facts: false
  vars: { word: sub }
  tasks:
    - name: "write {{ word }}"
      shell: mkdir -p {{ work }} && echo {{ word }} >> {{ work }}/words
`);
  const r = await run(ws, `
- import_playbook: sub.yml
  vars: { word: given }
- import_playbook: sub.yml
  when: false
- import_playbook: sub.yml
`);
  t.deepEqual(failures(r), []);
  t.is(readFileSync(`${ws.dir}/h1/words`, 'utf8'), 'given\nsub\n');
});

test('loop on import_tasks/import_role is refused naming file and line (an import is static)', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('inc.yml', '- debug: { msg: "{{ item }}" }\n');
  for (const [key, value] of [['loop', '[1, 2]'], ['with_items', '[1, 2]']]) {
    const err = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - import_tasks: inc.yml
      ${key}: ${value}
`).catch((e: Error) => e);
    t.true(err instanceof Error);
    t.regex((err as Error).message, new RegExp(`site\\.yml:6:7: '${key}' on import_tasks is not supported: an import is static; use include_tasks to loop`));
  }
});

test('vars_prompt: hostwire never prompts; the value comes with -e, else a clear error', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const pb = `
- hosts: nodes
  gather_facts: false
  vars_prompt:
    - name: release
      prompt: Which release?
  tasks:
    - shell: mkdir -p {{ work }} && echo {{ release }} > {{ work }}/release
`;
  const err = await run(ws, pb).catch((e: Error) => e);
  t.true(err instanceof Error);
  t.regex((err as Error).message, /site\.yml:5:\d+: vars_prompt 'release': hostwire does not prompt; pass the value with -e release=\.\.\./);
  const r = await run(ws, pb, { extraVars: { release: 'r42' } });
  t.deepEqual(failures(r), []);
  t.is(readFileSync(`${ws.dir}/h1/release`, 'utf8'), 'r42\n');
});
