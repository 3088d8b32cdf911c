// A library/ module named like a hostwire-native one replaces it, as ansible.legacy resolution does in
// ansible-core 2.14. Recorded with ansible-playbook 2.14 on a lab host (m21a, the same files: each test
// module returns from_library=<its name> and the argument names it got):
// - stat and ansible.legacy.stat ran library/stat.py (args [path]); ansible.builtin.stat ran the builtin
//   (stat.exists true) - when it ran first: after a library stat in the same run, 2.14 reused its AnsiballZ
//   cache (keyed ansible.modules.stat for both), an artifact hostwire does not copy;
// - command ran library/command.py ([_raw_params]); shell ran library/command.py too ([_raw_params,
//   _uses_shell]: the shell action runs ansible.legacy.command), never library/shell.py;
// - file ran library/file.py; debug ran the builtin action (library/debug.py unused); service ran
//   library/systemd.py (its action picks ansible.legacy.<service_mgr>) - hostwire runs its own, and warns;
// - a role's library/ping.py served ping inside the role and in the play's tasks after it; ANSIBLE_LIBRARY's
//   lineinfile.py replaced lineinfile ([create, line, path]);
// - copy ran library/copy.py after its action uploaded the content (args _original_basename, checksum, dest,
//   follow, src): hostwire cannot do the controller side for a library module, so that task fails saying so;
// - with library/setup.py, the play's Gathering Facts ran it (ansible_kernel undefined after): hostwire
//   gathers natively and says so at load.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localWorkspace, run, type Collected, type Workspace } from './helpers.js';

const module = (name: string) => `#!/usr/bin/python
# A test module: its name and the argument names it was given.
import json
import sys
from ansible.module_utils.basic import _load_params


def main():
    p = _load_params()
    print(json.dumps(dict(changed=False, from_library='${name}', args=sorted(k for k in p if not k.startswith('_ansible')))))
    sys.exit(0)


if __name__ == '__main__':
    main()
`;

/** What a task ran: the library module's name and argument names, or 'builtin'. */
function ran(r: Collected, task: string): string {
  const res = r.results.find((x) => x.task.name === task)?.result;
  if (!res) return 'not run';
  if (res.status === 'failed') return `failed: ${res.msg}`;
  const out = res.result ?? {};
  return out.from_library === undefined ? 'builtin' : `${String(out.from_library)} ${(out.args as string[]).join(',')}`;
}

// ANSIBLE_LIBRARY, read when a run's resolver first looks: this file's own process.
const envLib = mkdtempSync(path.join(tmpdir(), 'hw-m21-envlib-'));
process.env.ANSIBLE_LIBRARY = envLib;
test.after.always(() => rmSync(envLib, { recursive: true, force: true }));

function library(ws: Workspace, dir: string, names: string[]): void {
  for (const n of names) ws.write(path.join(dir, `${n}.py`), module(n));
}

test('library/ modules replace native stat, command (and shell), file; not ansible.builtin.X, not debug', async (t) => {
  const ws = localWorkspace(t);
  library(ws, 'library', ['stat', 'command', 'shell', 'file', 'debug', 'systemd']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - ansible.builtin.stat: { path: "${ws.dir}" }
    - stat: { path: "${ws.dir}" }
    - ansible.legacy.stat: { path: "${ws.dir}" }
    - command: echo hi
    - shell: echo hi
    - file: { path: "${ws.dir}", state: directory }
    - debug: { msg: hi }
`);
  t.is(r.summary.stats.h1?.failed, 0);
  const tasks = ['ansible.builtin.stat', 'stat', 'ansible.legacy.stat', 'command', 'shell', 'file', 'debug'];
  // Unnamed tasks show the name as written, as ansible-playbook does.
  t.deepEqual(r.tasksRun(), tasks);
  t.deepEqual(tasks.map((n) => ran(r, n)), ['builtin', 'stat path', 'stat path', 'command _raw_params', 'command _raw_params,_uses_shell', 'file path,state', 'builtin']);
  t.is((r.results[0]!.result.result?.stat as { exists?: boolean } | undefined)?.exists, true);
});

test("a loaded role's library/ serves its tasks and the play's after it; ANSIBLE_LIBRARY too; copy's own is refused when run", async (t) => {
  const ws = localWorkspace(t);
  library(ws, 'roles/r/library', ['ping']);
  library(ws, 'library', ['copy', 'systemd']);
  mkdirSync(envLib, { recursive: true });
  writeFileSync(path.join(envLib, 'lineinfile.py'), module('lineinfile'));
  ws.write('roles/r/tasks/main.yml', '- name: in role\n  ping: {}\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  roles: [r]
  tasks:
    - ping: {}
    - lineinfile: { path: "${ws.dir}/line", line: x, create: true }
    - copy: { content: x, dest: "${ws.dir}/copied" }
      ignore_errors: true
    - service: { name: hw-m21-none, state: started }
      check_mode: true
      ignore_errors: true
`);
  t.is(ran(r, 'in role'), 'ping ');
  t.is(ran(r, 'ping'), 'ping ');
  t.is(ran(r, 'lineinfile'), 'lineinfile create,line,path');
  t.regex(ran(r, 'copy'), /^failed: module 'copy' is .*\/library\/copy\.py here \(it shadows the builtin copy\), which ansible-core runs from its copy action, and that action uploads src or content to the host before it; hostwire's fallback runs host-side modules only/);
  // ansible-core's service action would run library/systemd.py on a systemd host; hostwire's native service runs, and says so at load.
  const warnings = r.events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  t.true(warnings.some((w) => /site\.yml:\d+: .*\/library\/systemd\.py replaces ansible\.legacy\.systemd, which ansible-core's service action also runs; hostwire's native service does not run it/.test(w)), warnings.join('\n'));
  t.false(ran(r, 'service').startsWith('systemd'));
});

test("a library/setup.py: the play's fact gathering (ansible-core's gather_facts action would run it) warns; gathering stays native", async (t) => {
  const ws = localWorkspace(t);
  library(ws, 'library', ['setup']);
  const r = await run(ws, `
- hosts: nodes
  tasks:
    - setup: { filter: ansible_hostname }
    - assert: { that: ansible_kernel is defined }
`);
  const warnings = r.events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  t.true(warnings.some((w) => /site\.yml:2: fact gathering: .*\/library\/setup\.py replaces ansible\.legacy\.setup, which ansible-core's gather_facts action also runs/.test(w)), warnings.join('\n'));
  t.is(ran(r, 'setup'), 'setup filter', 'the setup task itself runs library/setup.py');
  t.is(r.summary.stats.h1?.failed, 0);
});
