// The file an import_tasks / include_tasks names, found where ansible-core 2.14 looks
// (playbook/included_file.py, DataLoader.path_dwim_relative): in a role, the role's tasks/ first,
// then the role's own folder (so `include_tasks: tasks/x.yml` in tasks/main.yml means tasks/x.yml),
// then beside the including file (a nested include's folder); outside a role, beside the including
// file, then the playbook's folder. The first that exists wins; none existing means the first, so
// the error names the path Ansible would name.
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface TaskFileFrom {
  /** The file holding the import/include. */
  file: string;
  /** The role folder (in a role) or the playbook folder. */
  baseDir: string;
  inRole: boolean;
}

export function taskFilePath(rel: string, from: TaskFileFrom): string {
  if (path.isAbsolute(rel)) return path.normalize(rel);
  const beside = path.resolve(path.dirname(from.file), rel);
  const candidates = from.inRole
    ? [path.resolve(from.baseDir, 'tasks', rel), path.resolve(from.baseDir, rel), beside]
    : [beside, path.resolve(from.baseDir, rel)];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}
