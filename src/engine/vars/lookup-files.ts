// Where a lookup finds a relative file, as Ansible's find_file_in_search_path does: the role's
// <subdir>/ and the role, the playbook dir's <subdir>/ and the playbook dir, then the working directory.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

type Vars = Record<string, unknown>;

function searchDirs(vars: Vars, subdir: string): string[] {
  const dirs: string[] = [];
  // ansible_search_path (role path, the task file's dir) when the caller gives it, as a with_ loop of an include.
  const stack = vars.ansible_search_path;
  if (Array.isArray(stack)) for (const d of stack) if (typeof d === 'string') dirs.push(join(d, subdir), d);
  for (const key of ['role_path', 'playbook_dir']) {
    const d = vars[key];
    if (typeof d === 'string') dirs.push(join(d, subdir), d);
  }
  dirs.push(process.cwd());
  return dirs;
}

export function findFile(name: string, vars: Vars, subdir = 'files'): string | undefined {
  if (isAbsolute(name)) return existsSync(name) ? name : undefined;
  return searchDirs(vars, subdir).map((d) => join(d, name)).find((p) => existsSync(p));
}
