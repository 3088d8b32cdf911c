// The finder on folders made for it, in Ansible's search order: the task's role's library/, then
// the playbook's, the configured library paths, ansible-core's modules, ansible.builtin's routing
// table; collections by FQCN with their meta/runtime.yml redirects and tombstones.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findModule, isFound, type FindContext } from '../../src/fallback/find-module.js';

const root = mkdtempSync(path.join(tmpdir(), 'hw-f5-find-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, text = 'from ansible.module_utils.basic import AnsibleModule\n'): string {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
}

const roleMod = put('role/library/mine.py');
put('play/library/mine.py');
const playOnly = put('play/library/playmod.py');
const cfgMod = put('cfglib/cfgmod.py');
const coreGetent = put('core/ansible/modules/getent.py');
put('core/ansible/modules/copy.py');
put('core/ansible/modules/coreonly.py');
const copyAction = put('core/ansible/plugins/action/copy.py', '# action\n');
put('core/ansible/config/ansible_builtin_runtime.yml', `plugin_routing:
  modules:
    nmcli: { redirect: community.general.nmcli }
    oldthing: { tombstone: { removal_version: '2.0', warning_text: use newthing } }
`);
const nmcli = put('colls/ansible_collections/community/general/plugins/modules/nmcli.py');
put('colls/ansible_collections/community/general/meta/runtime.yml', `plugin_routing:
  modules:
    net_tools.nmcli: { redirect: community.general.nmcli }
    gone: { tombstone: { removal_version: '1.0' } }
`);
const nested = put('colls/ansible_collections/my/coll/plugins/modules/sub/deep.py');

const ctx: FindContext = {
  localLibraries: [path.join(root, 'role/library'), path.join(root, 'play/library')],
  library: [path.join(root, 'cfglib')],
  collections: [path.join(root, 'missing'), path.join(root, 'colls')],
  corePackageDir: path.join(root, 'core/ansible'),
};

test.serial('a short or ansible.legacy name: role library, then playbook library, then configured library, then core', (t) => {
  const r = findModule('mine', ctx);
  t.true(isFound(r));
  t.like(r, { path: roleMod, resolved: 'ansible.legacy.mine', remoteFqn: 'ansible.modules.mine', source: 'library' });
  t.like(findModule('ansible.legacy.playmod', ctx), { path: playOnly });
  t.like(findModule('cfgmod', ctx), { path: cfgMod, source: 'library' });
  t.like(findModule('getent', ctx), { path: coreGetent, resolved: 'ansible.builtin.getent', source: 'core', actionPlugin: undefined });
});

test.serial('ansible.builtin.X skips library folders; an action plugin of the same name is reported', (t) => {
  put('play/library/getent.py');
  t.like(findModule('ansible.builtin.getent', ctx), { path: coreGetent });
  t.like(findModule('getent', ctx), { path: path.join(root, 'play/library/getent.py') }, 'a library module shadows core for a short name, as in Ansible');
  t.like(findModule('ansible.builtin.copy', ctx), { actionPlugin: copyAction });
});

test.serial('routing: builtin redirects to a collection, collection redirects, nested module folders', (t) => {
  t.like(findModule('nmcli', ctx), { path: nmcli, resolved: 'community.general.nmcli', remoteFqn: 'ansible_collections.community.general.plugins.modules.nmcli', source: 'collection' });
  t.like(findModule('ansible.builtin.nmcli', ctx), { path: nmcli });
  t.like(findModule('community.general.net_tools.nmcli', ctx), { path: nmcli });
  t.like(findModule('my.coll.sub.deep', ctx), { path: nested, remoteFqn: 'ansible_collections.my.coll.plugins.modules.sub.deep' });
});

test.serial('not found: every place looked is named; removed modules and missing collections say why', (t) => {
  const r = findModule('nosuch', ctx);
  t.false(isFound(r));
  t.deepEqual((r as { looked: string[] }).looked, [path.join(root, 'role/library'), path.join(root, 'play/library'), path.join(root, 'cfglib'), path.join(root, 'core/ansible/modules')]);
  t.regex(String((findModule('oldthing', ctx) as { reason?: string }).reason), /removed from ansible-core: use newthing/);
  t.regex(String((findModule('community.general.gone', ctx) as { reason?: string }).reason), /removed from community\.general/);
  const coll = findModule('other.coll.x', ctx) as { reason?: string; looked: string[] };
  t.regex(String(coll.reason), /collection other\.coll is not installed/);
  t.true(coll.looked.includes(path.join(root, 'colls/ansible_collections/other/coll')));
  t.regex(String((findModule('a.b', ctx) as { reason?: string }).reason), /not a module name/);
});

test.serial('without ansible-core, library and collection modules are still found (core ones are not)', (t) => {
  const noCore = { ...ctx, corePackageDir: undefined };
  t.like(findModule('mine', noCore), { path: roleMod });
  t.like(findModule('community.general.nmcli', noCore), { path: nmcli });
  t.false(isFound(findModule('coreonly', noCore)));
});

test.serial('a redirect loop ends with a reason', (t) => {
  put('loop/ansible_collections/a/b/meta/runtime.yml', 'plugin_routing:\n  modules:\n    x: { redirect: a.b.y }\n    y: { redirect: a.b.x }\n');
  const r = findModule('a.b.x', { ...ctx, collections: [path.join(root, 'loop')] }) as { reason?: string };
  t.regex(String(r.reason), /more than 10 redirects/);
});
