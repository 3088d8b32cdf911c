// A playbook imported from another folder finds modules in the importing playbook's library/ too:
// ansible-core adds each loaded playbook's plugin folders (add_all_plugin_dirs) for the rest of the
// run, so a module beside the top playbook resolves in every playbook it imports.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFallbackResolver } from '../../src/fallback/resolve.js';
import { getModule, isKnownModule } from '../../src/modules/all.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-s8r-implib-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test("an imported playbook's task resolves a module from the importing playbook's library/", async (t) => {
  const env = { ...process.env, ANSIBLE_LIBRARY: path.join(dir, 'nolib') };
  mkdirSync(path.join(dir, 'library'), { recursive: true });
  mkdirSync(path.join(dir, 'sub'), { recursive: true });
  writeFileSync(path.join(dir, 'library/hw_top_only.py'), 'from ansible.module_utils.basic import AnsibleModule\n');
  writeFileSync(path.join(dir, 'site.yml'), '- hosts: all\n  tasks:\n    - debug: msg=top\n- import_playbook: sub/inner.yml\n');
  writeFileSync(path.join(dir, 'sub/inner.yml'), '- hosts: all\n  tasks:\n    - hw_top_only: { a: 1 }\n');
  const pb = await loadPlaybook(path.join(dir, 'site.yml'), { knownModule: isKnownModule, resolveModule: createFallbackResolver({ env }) });
  const task = pb.plays[1]!.tasks[0]!;
  t.is(task.kind === 'task' ? task.module : '', 'hw_top_only');
  t.is(getModule('hw_top_only')?.environment, 'applies', 'a fallback module');
  // Loaded alone, the inner playbook does not see the outer folder's library/.
  const alone = await t.throwsAsync(loadPlaybook(path.join(dir, 'sub/inner.yml'), { knownModule: isKnownModule, resolveModule: createFallbackResolver({ env }) }));
  t.regex(alone!.message, /couldn't resolve module\/action 'hw_top_only'/);
});
