// A dynamic include whose file has an error Ansible raises only when the file is read: ansible-playbook 2.14
// loads include_tasks/include_role when a host reaches them, so --syntax-check passes and the run ends at the
// include (openshift-ansible 3.11 has `become` on an include_role in a file reached this way). Recorded from
// ansible-playbook 2.14 on these files against a lab host: syntax-check rc 0; the run printed `before`, then
// "ERROR! 'become' is not a valid attribute for a IncludeRole" naming broken.yml, no `after`, rc 4.
import test from 'ava';
import path from 'node:path';
import { localWorkspace } from './helpers.js';
import { runPlaybook, type RunOptions } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';

const PLAY = `- hosts: nodes
  gather_facts: false
  tasks:
    - name: before
      debug: { msg: before }
    - include_tasks: broken.yml
    - name: after
      debug: { msg: after }
`;
const BROKEN = '- name: inner include_role with become\n  include_role: { name: r }\n  become: true\n';

test('loads with a warning naming both places, and the run ends at the include with the error', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('broken.yml', BROKEN);
  ws.write('roles/r/tasks/main.yml', '- debug: { msg: in r }\n');
  const warnings: string[] = [];
  await t.notThrowsAsync(loadPlaybook(ws.write('check.yml', PLAY), { knownModule: isKnownModule, onWarning: (m) => warnings.push(m) }));
  t.deepEqual(warnings.map((w) => w.replace(ws.dir, 'WS').replace(ws.dir, 'WS')), [
    "WS/check.yml:6:7: include_tasks is loaded when a host reaches it, and will fail there: WS/broken.yml:3:3: 'become' is not a valid attribute for a IncludeRole: set it in apply: (include_role applies it to the included tasks) or use import_role",
  ]);
  const said: string[] = [];
  const onEvent = (e: RunEvent) => {
    if (e.type === 'task_start') said.push(e.task.name);
  };
  const opts = { playbook: ws.write('site.yml', PLAY), inventory: [path.join(ws.dir, 'inventory.ini')], retryFile: false, onEvent };
  const err = await runPlaybook(opts as RunOptions).catch((e: Error) => e);
  t.regex(String((err as Error).message), /broken\.yml:3:3: 'become' is not a valid attribute for a IncludeRole/);
  t.deepEqual(said, ['before', 'include_tasks']);
});

test('a file including itself with nothing to end it is still refused at load: it could never end', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('loop.yml', '- include_tasks: loop.yml\n');
  const err = await loadPlaybook(ws.write('check.yml', PLAY.replace('broken.yml', 'loop.yml')), { knownModule: isKnownModule }).catch((e: Error) => e);
  t.regex(String((err as Error).message), /include_tasks recursion: check\.yml -> loop\.yml -> loop\.yml/);
});
