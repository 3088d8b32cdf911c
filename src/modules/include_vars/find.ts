// Where ansible-core 2.14's include_vars action (plugins/action/include_vars.py) finds its files on
// the controller: a `file` through the task's search path (the role's vars/ and the role, then the
// playbook's vars/ and the playbook's folder), a `dir` under the role's vars/ (or beside the
// playbook), walked as os.walk sorted by folder, `depth` counting folders visited, not levels.
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Where {
  /** role_path of the task's role, if any. */
  rolePath?: string;
  /** The playbook's folder (playbook_dir). */
  playbookDir: string;
}

/** The candidates _find_needle('vars', file) tries, in order. */
export function fileCandidates(file: string, w: Where): string[] {
  if (path.isAbsolute(file)) return [file];
  const roots = [w.rolePath, w.playbookDir].filter((r): r is string => r !== undefined);
  return roots.flatMap((r) => [path.join(r, 'vars', file), path.join(r, file)]);
}

/** include_vars' _set_root_dir. */
export function dirRoot(dir: string, w: Where): string {
  if (path.isAbsolute(dir)) return dir;
  if (w.rolePath) {
    if (dir.split('/')[0] === 'vars' && existsSync(path.join(w.rolePath, dir))) return path.join(w.rolePath, dir);
    return path.join(w.rolePath, 'vars', dir);
  }
  return path.join(w.playbookDir, dir);
}

/** os.walk(root) (no symlinked folders followed) sorted by folder path; each folder's files sorted. */
export function walkSorted(root: string): { dir: string; files: string[] }[] {
  const out: { dir: string; files: string[] }[] = [];
  const visit = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // os.walk's onerror only logs
    }
    const files: string[] = [];
    const dirs: string[] = [];
    for (const n of names) {
      const p = path.join(dir, n);
      let isDir = false;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        /* a dangling link: a file to os.walk */
      }
      (isDir ? dirs : files).push(n);
    }
    out.push({ dir, files: files.sort() });
    for (const d of dirs) {
      if (!lstatSync(path.join(dir, d)).isSymbolicLink()) visit(path.join(dir, d));
    }
  };
  visit(root);
  return out.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}
