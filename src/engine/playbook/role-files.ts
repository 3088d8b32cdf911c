// A role's files as Ansible's Role._load_role_yaml finds them: `main` tried with .yml, .yaml, .json
// and bare; a name given by *_from tried bare first; vars/defaults may be a directory of files merged.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { BadInputError, type SourceLoc } from '../../errors.js';
import { mergeVars } from '../vars/index.js';
import { locOf, readYamlFile } from '../yaml-source.js';
import { describe } from './keyword-types.js';
import type { Vars } from './types.js';

/** The file (or, for vars, a directory) a role's `sub/name` names, or undefined. */
export function findRoleFile(dir: string, sub: string, name: string | undefined): string | undefined {
  const base = path.join(dir, sub, name ?? 'main');
  const exts = name === undefined ? ['.yml', '.yaml', '.json', ''] : ['', '.yml', '.yaml', '.json'];
  for (const ext of exts) {
    const p = base + ext;
    if (!existsSync(p)) continue;
    // `tasks/main` may be a folder beside main.yml; `tasks/main.yml` as a folder is a broken role.
    if (statSync(p).isDirectory() && ext !== '') throw new BadInputError(`a role's ${sub}/${path.basename(p)} must be a file, found a directory`, { file: p });
    return p;
  }
  return undefined;
}

/**
 * Reads `sub/name` of a role. A name given (tasks_from...) that is not there is an error when the
 * role has that folder, as Ansible's "Could not find specified file in role".
 */
export async function readRoleFile(dir: string, sub: string, name?: string, opts: { allowDir?: boolean; at?: SourceLoc } = {}): Promise<unknown> {
  const found = findRoleFile(dir, sub, name);
  if (found === undefined) {
    if (name !== undefined && existsSync(path.join(dir, sub))) throw new BadInputError(`Could not find specified file in role: ${sub}/${name} (role ${path.basename(dir)})`, opts.at ?? { file: path.join(dir, sub) });
    return undefined;
  }
  if (!statSync(found).isDirectory()) return readYamlFile(found);
  if (!opts.allowDir) return undefined;
  // vars/main/ as a folder: its files merged in name order (Ansible's find_vars_files with allow_dir).
  let merged: Vars | undefined;
  for (const f of readdirSync(found).sort()) {
    if (!/\.(ya?ml|json)$/.test(f)) continue;
    const data = await readYamlFile(path.join(found, f));
    if (data === undefined || data === null) continue;
    merged = mergeVars(merged ?? {}, asRoleVars(data, path.join(found, f)));
  }
  return merged;
}

export const asRoleVars = (v: unknown, file: string): Vars => {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new BadInputError(`expected a mapping of variables, got ${describe(v)}`, locOf(v) ?? { file, line: 1 });
  return v as Vars;
};

/** The path used in messages (and as the task list's file) for `sub/name`. */
export function roleFilePath(dir: string, sub: string, name?: string): string {
  const found = findRoleFile(dir, sub, name);
  return found ?? path.join(dir, sub, `${name ?? 'main'}.yml`);
}
