// Which ansible.cfg applies, searched as Ansible's find_ini_config_file does: ANSIBLE_CONFIG (a file,
// or a directory holding ansible.cfg), ./ansible.cfg, ~/.ansible.cfg, /etc/ansible/ansible.cfg;
// the first readable one wins, the others are ignored. A world-writable working directory's
// ansible.cfg is skipped (anyone could have put it there) with a warning.
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface ConfigSearch {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  home?: string;
  /** The system-wide file (tests point it elsewhere). */
  systemFile?: string;
}

export interface FoundConfig {
  file?: string;
  warnings: string[];
}

const WORLD_WRITABLE = 0o002;

function readable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function expandHome(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

export function findConfigFile(o: ConfigSearch = {}): FoundConfig {
  const env = o.env ?? process.env;
  const cwd = o.cwd ?? process.cwd();
  const home = o.home ?? homedir();
  const candidates: string[] = [];
  const warnings: string[] = [];
  const fromEnv = env.ANSIBLE_CONFIG;
  if (fromEnv !== undefined && fromEnv !== '') {
    const p = path.resolve(cwd, expandHome(fromEnv, home));
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch { /* not there: skipped like any missing candidate */ }
    candidates.push(isDir ? path.join(p, 'ansible.cfg') : p);
  }
  const cwdFile = path.join(cwd, 'ansible.cfg');
  let cwdSkipped = false;
  try {
    if (statSync(cwd).mode & WORLD_WRITABLE) cwdSkipped = readable(cwdFile);
    else candidates.push(cwdFile);
  } catch { /* the working directory vanished: nothing to read there */ }
  candidates.push(path.join(home, '.ansible.cfg'), o.systemFile ?? '/etc/ansible/ansible.cfg');
  const file = candidates.find(readable);
  const envFile = fromEnv ? candidates[0] : undefined;
  if (cwdSkipped && file !== envFile) {
    warnings.push(`hostwire is being run in a world writable directory (${cwd}), ignoring it as an ansible.cfg source`);
  }
  return { file, warnings };
}
