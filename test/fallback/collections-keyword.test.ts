// `collections:` steers a short module name as in ansible-core 2.14: the task's, block's, role's (its
// collection and meta/main.yml `collections:`, never the play's) or the play's list is searched first, up
// to ansible.builtin/ansible.legacy where they are listed. Recorded from ansible-playbook 2.14 on lab host
// s9f-1 with the same collection (hwtest.coll with hwc_mod and ping) and playbook: hwc_mod ran hwtest.coll's,
// ping under the play's list returned 'from-collection', under a block's [ansible.builtin, hwtest.coll] and a
// task's [ansible.legacy] 'pong', in a role without collections 'pong', in a role whose meta lists hwtest.coll
// 'from-collection', in a play without collections 'pong'.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFallbackResolver } from '../../src/fallback/resolve.js';
import { isKnownModule } from '../../src/modules/all.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import type { TaskItem } from '../../src/engine/playbook/types.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-collections-kw-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const colls = path.join(dir, 'colls');
const env = { ...process.env, ANSIBLE_COLLECTIONS_PATH: colls, ANSIBLE_LIBRARY: path.join(dir, 'nolib') };

function write(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
}

const MODULE = (name: string) => `from ansible.module_utils.basic import AnsibleModule
def main():
    m = AnsibleModule(argument_spec=dict(), supports_check_mode=True)
    m.exit_json(changed=False, which='hwtest.coll.${name}', ping='from-collection')
if __name__ == '__main__':
    main()
`;

const flat = (items: TaskItem[]): string[] => items.flatMap((x) => (x.kind === 'block' ? flat([...x.block, ...x.rescue, ...x.always]) : [x.module]));

test('a short module name is looked up in the collections the task sees, as ansible-core 2.14 does', async (t) => {
  write('colls/ansible_collections/hwtest/coll/galaxy.yml', 'namespace: hwtest\nname: coll\nversion: 1.0.0\n');
  write('colls/ansible_collections/hwtest/coll/plugins/modules/hwc_mod.py', MODULE('hwc_mod'));
  write('colls/ansible_collections/hwtest/coll/plugins/modules/ping.py', MODULE('ping'));
  write('pb/roles/plain/tasks/main.yml', '- ping:\n');
  write('pb/roles/listing/meta/main.yml', 'collections: [hwtest.coll]\n');
  write('pb/roles/listing/tasks/main.yml', '- ping:\n- debug: { msg: x }\n');
  write('pb/site.yml', `- hosts: all
  gather_facts: false
  collections: [hwtest.coll]
  tasks:
    - hwc_mod:
    - ping:
    - block:
        - ping:
      collections: [ansible.builtin, hwtest.coll]
    - ping:
      collections: [ansible.legacy]
    - debug: { msg: native, no collection has it }
    - import_role: { name: plain }
    - import_role: { name: listing }
- hosts: all
  gather_facts: false
  tasks:
    - ping:
`);
  const pb = await loadPlaybook(path.join(dir, 'pb/site.yml'), { knownModule: isKnownModule, resolveModule: createFallbackResolver({ env }) });
  t.deepEqual(flat(pb.plays[0]!.tasks), ['hwtest.coll.hwc_mod', 'hwtest.coll.ping', 'ping', 'ping', 'debug', 'ping', 'hwtest.coll.ping', 'debug']);
  t.deepEqual(flat(pb.plays[1]!.tasks), ['ping']);
});

test('a listed collection that is not installed, or lacks the module, leaves the name to the usual search', async (t) => {
  write('pb2/site.yml', '- hosts: all\n  gather_facts: false\n  collections: [nowhere.coll, hwtest.coll]\n  tasks:\n    - stat: { path: /etc }\n    - nowhere_mod:\n');
  const err = await loadPlaybook(path.join(dir, 'pb2/site.yml'), { knownModule: isKnownModule, resolveModule: createFallbackResolver({ env }) }).catch((e: Error) => e);
  t.regex(String((err as Error).message), /site\.yml:6:\d+: couldn't resolve module\/action 'nowhere_mod'/);
});
