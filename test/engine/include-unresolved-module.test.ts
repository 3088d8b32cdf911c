// A dynamic include under a when whose file uses a module hostwire cannot resolve (another OS family's
// file, a module newer than 2.14) is loaded when a host reaches it, as Ansible loads every dynamic include:
// --syntax-check and a run where no host reaches it pass; a host reaching it ends the run with Ansible's
// error. Behaviour recorded from ansible-playbook 2.14 on the same files: syntax-check passed; the run
// printed "ERROR! couldn't resolve module/action 'ansible.builtin.deb822_repository'" naming other.yml
// line 1 and stopped (rc 4, no later task). Unconditional, the same: syntax-check passed, the run stopped there.
import test from 'ava';
import { localWorkspace, run, type Workspace } from './helpers.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';

const PLAY = `- hosts: nodes
  gather_facts: false
  tasks:
    - include_tasks: other.yml
      when: family == 'Other'
    - include_tasks: ours.yml
      when: family == 'Ours'
    - name: after
      debug: { msg: after }
`;

function files(ws: Workspace): void {
  ws.write('other.yml', '- name: other family only\n  ansible.builtin.deb822_repository: { name: x, types: deb, uris: "http://example.invalid", suites: s, components: c }\n');
  ws.write('ours.yml', '- name: ours\n  debug: { msg: ours }\n');
}

test('an include under a when is loaded when reached if its file names a module hostwire cannot resolve', async (t) => {
  const ws = localWorkspace(t, ['h1'], '[nodes:vars]\nfamily=Ours');
  files(ws);
  await t.notThrowsAsync(loadPlaybook(ws.write('check.yml', PLAY), { knownModule: isKnownModule }));
  const r = await run(ws, PLAY);
  t.deepEqual(r.tasksRun(), ['include_tasks', 'include_tasks', 'ours', 'after']);
  t.is(r.byTask('after').h1, 'ok');
});

test('a host reaching it ends the run naming the module; unconditional, the load warns and the run ends there', async (t) => {
  const ws = localWorkspace(t, ['h1'], '[nodes:vars]\nfamily=Other');
  files(ws);
  const err = await run(ws, PLAY).catch((e: Error) => e);
  t.regex(String((err as Error).message), /other\.yml:2:\d+: couldn't resolve module\/action 'ansible\.builtin\.deb822_repository'/);
  // Unconditional: ansible-playbook 2.14 --syntax-check passes (it never reads a dynamic include); hostwire
  // passes too and says now what a host reaching it will meet.
  const warnings: string[] = [];
  const fixed = ws.write('fixed.yml', '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - include_tasks: other.yml\n    - debug: { msg: after }\n');
  await t.notThrowsAsync(loadPlaybook(fixed, { knownModule: isKnownModule, onWarning: (m) => warnings.push(m) }));
  t.is(warnings.length, 1);
  t.regex(warnings[0]!, /fixed\.yml:4:\d+: include_tasks is loaded when a host reaches it, and will fail there: .*other\.yml:2:\d+: couldn't resolve module\/action 'ansible\.builtin\.deb822_repository'/);
  const ended = await run(ws, '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - include_tasks: other.yml\n    - debug: { msg: after }\n').catch((e: Error) => e);
  t.regex(String((ended as Error).message), /couldn't resolve module\/action 'ansible\.builtin\.deb822_repository'/);
});
