// Where modules, module_utils and collections are looked for: ansible.cfg and ANSIBLE_* as
// ansible-core 2.14's config/base.yml defines them (env over file, later names win, defaults under
// ANSIBLE_HOME).
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { moduleSearchPaths } from '../../src/fallback/search-paths.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-f5-paths-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const home = path.join(dir, 'home');
const none = path.join(dir, 'no-system-file');

test('defaults: ~/.ansible and /usr/share/ansible', (t) => {
  const p = moduleSearchPaths({ env: {}, cwd: home, home, systemFile: none });
  t.deepEqual(p.library, [`${home}/.ansible/plugins/modules`, '/usr/share/ansible/plugins/modules']);
  t.deepEqual(p.moduleUtils, [`${home}/.ansible/plugins/module_utils`, '/usr/share/ansible/plugins/module_utils']);
  t.deepEqual(p.collections, [`${home}/.ansible/collections`, '/usr/share/ansible/collections']);
  t.is(p.configFile, undefined);
});

test('ansible.cfg: paths relative to the file, collections_path over collections_paths, home moves the defaults', (t) => {
  const proj = path.join(dir, 'proj');
  mkdirSync(proj, { recursive: true });
  writeFileSync(path.join(proj, 'ansible.cfg'), '[defaults]\nlibrary = lib:~/more\ncollections_paths = old\ncollections_path = ./colls\nhome = ./ah\n');
  const p = moduleSearchPaths({ env: {}, cwd: proj, home, systemFile: none });
  t.is(p.configFile, path.join(proj, 'ansible.cfg'));
  t.deepEqual(p.library, [path.join(proj, 'lib'), path.join(home, 'more')]);
  t.deepEqual(p.collections, [path.join(proj, 'colls')]);
  t.deepEqual(p.moduleUtils, [path.join(proj, 'ah/plugins/module_utils'), '/usr/share/ansible/plugins/module_utils']);
  const env = moduleSearchPaths({ env: { ANSIBLE_LIBRARY: '/x:/y', ANSIBLE_COLLECTIONS_PATHS: '/a', ANSIBLE_COLLECTIONS_PATH: '/b' }, cwd: proj, home, systemFile: none });
  t.deepEqual(env.library, ['/x', '/y'], 'the environment wins over the file');
  t.deepEqual(env.collections, ['/b'], 'ANSIBLE_COLLECTIONS_PATH wins over ANSIBLE_COLLECTIONS_PATHS');
});
