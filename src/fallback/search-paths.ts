// Where Ansible looks for modules, module_utils and collections, from the same settings it reads
// (config/base.yml of ansible-core 2.14): DEFAULT_MODULE_PATH ([defaults] library, ANSIBLE_LIBRARY),
// DEFAULT_MODULE_UTILS_PATH ([defaults] module_utils, ANSIBLE_MODULE_UTILS), COLLECTIONS_PATHS
// ([defaults] collections_paths / collections_path, ANSIBLE_COLLECTIONS_PATHS / _PATH), each
// defaulting under ANSIBLE_HOME (~/.ansible) and /usr/share/ansible. The environment wins over the
// file; a relative path from the file is relative to the file's directory.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { BadInputError } from '../errors.js';
import { findConfigFile, parseIni } from '../config/index.js';
import type { ConfigSearch } from '../config/find.js';

export interface ModuleSearchPaths {
  /** Configured module dirs (library), searched after the playbook's and roles' library/. */
  library: string[];
  moduleUtils: string[];
  /** Collection roots (each holds ansible_collections/<ns>/<name>). */
  collections: string[];
  /** The ansible.cfg read, if any (named in messages). */
  configFile?: string;
}

interface Setting {
  ini: string[];
  env: string[];
  defaults: (home: string) => string;
}

const SETTINGS = {
  library: { ini: ['library'], env: ['ANSIBLE_LIBRARY'], defaults: (h) => `${h}/plugins/modules:/usr/share/ansible/plugins/modules` },
  moduleUtils: { ini: ['module_utils'], env: ['ANSIBLE_MODULE_UTILS'], defaults: (h) => `${h}/plugins/module_utils:/usr/share/ansible/plugins/module_utils` },
  collections: {
    ini: ['collections_paths', 'collections_path'],
    env: ['ANSIBLE_COLLECTIONS_PATHS', 'ANSIBLE_COLLECTIONS_PATH'],
    defaults: (h) => `${h}/collections:/usr/share/ansible/collections`,
  },
} satisfies Record<string, Setting>;

const expandHome = (p: string, home: string) => (p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p);

function pathspec(value: string, baseDir: string, home: string): string[] {
  return value.split(':').map((s) => s.trim()).filter(Boolean).map((p) => path.resolve(baseDir, expandHome(p, home)));
}

/** The search paths that apply for this environment and working directory (as ansible-playbook would see them). */
export function moduleSearchPaths(search: ConfigSearch = {}): ModuleSearchPaths {
  const env = search.env ?? process.env;
  const cwd = search.cwd ?? process.cwd();
  const home = search.home ?? homedir();
  const found = findConfigFile({ ...search, env, cwd, home });
  let defaults: Map<string, { value: string }> | undefined;
  if (found.file) {
    try {
      defaults = parseIni(readFileSync(found.file, 'utf8'), found.file).get('defaults');
    } catch (err) {
      if (err instanceof BadInputError) throw err;
      throw new BadInputError(`${found.file}: cannot read the configuration file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const fileDir = found.file ? path.dirname(found.file) : cwd;
  const ansibleHome = env.ANSIBLE_HOME ? path.resolve(cwd, expandHome(env.ANSIBLE_HOME, home))
    : defaults?.get('home') ? path.resolve(fileDir, expandHome(defaults.get('home')!.value, home)) : path.join(home, '.ansible');
  const value = (s: Setting): string[] => {
    // Later names in each list win, as in Ansible's config manager.
    const fromEnv = [...s.env].reverse().map((n) => env[n]).find((v) => v !== undefined && v !== '');
    if (fromEnv !== undefined) return pathspec(fromEnv, cwd, home);
    const fromFile = [...s.ini].reverse().map((k) => defaults?.get(k)?.value).find((v) => v !== undefined);
    if (fromFile !== undefined) return pathspec(fromFile, fileDir, home);
    return pathspec(s.defaults(ansibleHome), cwd, home);
  };
  return { library: value(SETTINGS.library), moduleUtils: value(SETTINGS.moduleUtils), collections: value(SETTINGS.collections), configFile: found.file };
}
