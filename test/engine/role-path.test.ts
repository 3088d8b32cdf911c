// resolveRolePath as ansible-core 2.14's RoleDefinition._load_role_path: search-path order, names kept
// as written there, a path from the working directory named by its basename, collections.
import test from 'ava';
import path from 'node:path';
import { resolveRolePath, roleSearchPaths, type RoleSearch } from '../../src/engine/playbook/role-path.js';
import { defaultRolesPath, expandVars } from '../../src/config/settings.js';
import { workspace } from './helpers.js';

function setup(t: { teardown(fn: () => void): void }) {
  const ws = workspace();
  t.teardown(ws.cleanup);
  for (const d of ['pb/roles/a', 'cfg/a', 'cfg/b', 'pb/c', 'cwd/only/here/d', 'owner/sib', 'colls/ansible_collections/ns/co/roles/sub/r']) ws.write(`${d}/tasks/main.yml`, '[]\n');
  const search: RoleSearch = { playbookDir: path.join(ws.dir, 'pb'), rolesPath: [path.join(ws.dir, 'cfg')], cwd: path.join(ws.dir, 'cwd'), collectionRoots: () => [path.join(ws.dir, 'colls')] };
  return { ws, search };
}

test("search order: the playbook's roles/, the roles path, the depending role's folder, the playbook's folder", (t) => {
  const { ws, search } = setup(t);
  t.deepEqual(roleSearchPaths(search, path.join(ws.dir, 'owner/x')), [path.join(ws.dir, 'pb/roles'), path.join(ws.dir, 'cfg'), path.join(ws.dir, 'owner'), path.join(ws.dir, 'pb')]);
  t.deepEqual(resolveRolePath('a', search), { name: 'a', dir: path.join(ws.dir, 'pb/roles/a') });
  t.deepEqual(resolveRolePath('b', search), { name: 'b', dir: path.join(ws.dir, 'cfg/b') });
  t.deepEqual(resolveRolePath('c', search), { name: 'c', dir: path.join(ws.dir, 'pb/c') });
  t.deepEqual(resolveRolePath('sib', search, path.join(ws.dir, 'owner/x')), { name: 'sib', dir: path.join(ws.dir, 'owner/sib') });
  t.true('looked' in resolveRolePath('sib', search), 'the owner folder is searched for meta dependencies only');
});

test('a name with sub-directories is joined to each search path and keeps its name; a path from the cwd is named by its basename', (t) => {
  const { ws, search } = setup(t);
  t.deepEqual(resolveRolePath('../cfg/b', search), { name: '../cfg/b', dir: path.join(ws.dir, 'cfg/b') });
  t.deepEqual(resolveRolePath('only/here/d', search), { name: 'd', dir: path.join(ws.dir, 'cwd/only/here/d') });
  const abs = path.join(ws.dir, 'pb/c');
  t.deepEqual(resolveRolePath(abs, search), { name: abs, dir: abs });
});

test('collection roles: ns.coll.role (with sub-directories) and short names through the play collections', (t) => {
  const { ws, search } = setup(t);
  const dir = path.join(ws.dir, 'colls/ansible_collections/ns/co/roles/sub/r');
  t.deepEqual(resolveRolePath('ns.co.sub.r', search), { name: 'r', dir, collection: 'ns.co' });
  t.true('looked' in resolveRolePath('ns.other.r', search));
  const viaList = resolveRolePath('a', { ...search, collections: ['ns.co'] });
  t.deepEqual(viaList, { name: 'a', dir: path.join(ws.dir, 'pb/roles/a') }, 'not in the collection: the search paths still apply');
  t.deepEqual(resolveRolePath('nope', { ...search, collections: ['ns.co'] }), {
    looked: ['ns.co', path.join(ws.dir, 'pb/roles'), path.join(ws.dir, 'cfg'), path.join(ws.dir, 'pb')],
  });
});

test('$VARIABLES in paths are expanded as os.path.expandvars does (unset ones left as written)', (t) => {
  t.is(expandVars('$A/x/${B}/$UNSET_S8R/y', { A: '/a', B: 'b' }), '/a/x/b/$UNSET_S8R/y');
});

test("Ansible's default roles path follows ANSIBLE_HOME", (t) => {
  t.deepEqual(defaultRolesPath({ ANSIBLE_HOME: '/opt/ah' }), ['/opt/ah/roles', '/usr/share/ansible/roles', '/etc/ansible/roles']);
});
