// hostwire's configuration: ansible.cfg (found as Ansible finds it) under ANSIBLE_* environment
// variables; the command line overrides both (merged in src/cli/config-merge.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../errors.js';
import { parseIni } from './ini.js';
import { findConfigFile, type ConfigSearch } from './find.js';
import { SETTINGS, coerceSetting, type SettingName } from './settings.js';

export { findConfigFile } from './find.js';
export { parseIni } from './ini.js';

export interface HostwireConfig {
  /** The ansible.cfg read, if any. */
  file?: string;
  warnings: string[];
  inventory?: string[];
  rolesPath?: string[];
  remoteUser?: string;
  privateKeyFile?: string;
  forks?: number;
  hostKeyChecking?: boolean;
  timeout?: number;
  vaultPasswordFile?: string;
  gathering?: 'implicit' | 'explicit' | 'smart';
  become?: boolean;
  becomeMethod?: 'sudo';
  becomeUser?: string;
  becomeAskPass?: boolean;
  showCustomStats?: boolean;
  hostKeyPolicy?: 'strict' | 'accept-new' | 'off';
  lockTimeout?: number;
  /** Seconds hostwire's connection keeper keeps a host's connection after a run (0: not kept). */
  connectionPersist?: number;
}

const NAMES = Object.keys(SETTINGS) as SettingName[];

/** Reads the configuration that applies now (env and cwd as given, else the process's). */
export function loadConfig(search: ConfigSearch = {}): HostwireConfig {
  const env = search.env ?? process.env;
  const cwd = search.cwd ?? process.cwd();
  const found = findConfigFile({ ...search, env, cwd });
  const out: HostwireConfig = { file: found.file, warnings: found.warnings };
  const set = out as unknown as Record<string, unknown>;
  if (found.file) {
    let text: string;
    try {
      text = readFileSync(found.file, 'utf8');
    } catch (err) {
      throw new BadInputError(`${found.file}: cannot read the configuration file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const sections = parseIni(text, found.file);
    checkOwnSection(sections.get('hostwire'), found.file);
    const baseDir = path.dirname(found.file);
    for (const name of NAMES) {
      const def = SETTINGS[name];
      const v = sections.get(def.section)?.get(def.key);
      if (v) set[name] = coerceSetting(name, v.value, { file: found.file, line: v.line, baseDir });
    }
  }
  // The environment overrides the file, as in Ansible.
  for (const name of NAMES) {
    const raw = env[SETTINGS[name].env];
    if (raw !== undefined && raw !== '') set[name] = coerceSetting(name, raw, { env: SETTINGS[name].env, baseDir: cwd });
  }
  return out;
}

/** Unknown keys under [defaults] are Ansible's business; under [hostwire] they are typos. */
function checkOwnSection(section: Map<string, { line: number }> | undefined, file: string): void {
  if (!section) return;
  const known = NAMES.filter((n) => SETTINGS[n].section === 'hostwire').map((n) => SETTINGS[n].key);
  for (const [key, v] of section) {
    if (!(known as string[]).includes(key)) throw new BadInputError(`${file}:${v.line}: [hostwire] has no setting '${key}'; expected one of ${known.join(', ')}`);
  }
}
