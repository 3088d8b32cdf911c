// community.general.filetree (with_filetree, openshift-ansible 3.11's config templates): every entry under
// a directory found as path_dwim_relative finds it (the role's files/), walked top-down as os.walk does -
// a directory's subdirectories then its files, then each subdirectory in turn - with the properties its
// file_props returns (lstat: a link is not followed, nor descended into). Names are sorted (os.walk's
// order is the file system's). SELinux context keys are absent, as on a controller without libselinux.
import { lstatSync, readFileSync, readdirSync, readlinkSync, statSync, type BigIntStats } from 'node:fs';
import { join, relative } from 'node:path';
import { findFile } from './lookup-files.js';
import { pyStr } from './py.js';

type Vars = Record<string, unknown>;

function idNames(file: string): Map<number, string> {
  const m = new Map<number, string>();
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length > 2 && /^\d+$/.test(f[2]!) && !m.has(Number(f[2]))) m.set(Number(f[2]), f[0]!);
    }
  } catch {
    /* no names: ids stay numbers, as getpwuid's KeyError gives */
  }
  return m;
}

/** CPython's st_mtime/st_ctime: sec + nsec * 1e-9 as a double. */
const pyTime = (ns: bigint): number => Number(ns / 1_000_000_000n) + Number(ns % 1_000_000_000n) * 1e-9;

function fileProps(root: string, path: string, users: Map<number, string>, groups: Map<number, string>): Record<string, unknown> | undefined {
  const abs = join(root, path);
  let st: BigIntStats;
  try {
    st = lstatSync(abs, { bigint: true });
  } catch {
    return undefined;
  }
  const ret: Record<string, unknown> = { root, path };
  if (st.isSymbolicLink()) Object.assign(ret, { state: 'link', src: readlinkSync(abs) });
  else if (st.isDirectory()) ret.state = 'directory';
  else if (st.isFile()) Object.assign(ret, { state: 'file', src: abs });
  else return undefined;
  const uid = Number(st.uid);
  const gid = Number(st.gid);
  Object.assign(ret, {
    uid, gid, owner: users.get(uid) ?? uid, group: groups.get(gid) ?? gid,
    mode: `0${(Number(st.mode) & 0o7777).toString(8).padStart(3, '0')}`,
    size: Number(st.size), mtime: pyTime(st.mtimeNs), ctime: pyTime(st.ctimeNs),
  });
  return ret;
}

function walk(top: string, visit: (dir: string, entries: string[]) => void): void {
  let names: string[];
  try {
    names = readdirSync(top).sort();
  } catch {
    return;
  }
  // os.walk sorts a link to a directory among the directories (is_dir follows links).
  const isDir = (n: string) => statSync(join(top, n), { throwIfNoEntry: false })?.isDirectory() ?? false;
  const dirs = names.filter(isDir);
  visit(top, [...dirs, ...names.filter((n) => !dirs.includes(n))]);
  // os.walk(followlinks=False): a link to a directory is listed with the directories but not entered.
  for (const d of dirs) if (!lstatSync(join(top, d)).isSymbolicLink()) walk(join(top, d), visit);
}

export function filetreeLookup(terms: unknown[], _kw: Record<string, unknown>, vars: Vars): unknown[] {
  const users = idNames('/etc/passwd');
  const groups = idNames('/etc/group');
  const ret: Record<string, unknown>[] = [];
  for (const t of terms) {
    // Python's os.path split: 'tree/' is dirname 'tree', basename '' - and root keeps the trailing slash.
    const term = pyStr(t);
    const cut = term.lastIndexOf('/');
    const dir = cut < 0 ? '.' : term.slice(0, cut) || '/';
    const file = term.slice(cut + 1);
    const base = findFile(dir, vars, 'files') ?? dir;
    const path = file === '' ? base.replace(/\/?$/, '/') : join(base, file);
    walk(path, (dir, entries) => {
      for (const e of entries) {
        const rel = relative(path, join(dir, e));
        if (ret.some((r) => r.path === rel)) continue;
        const props = fileProps(path, rel, users, groups);
        if (props) ret.push(props);
      }
    });
  }
  return ret;
}
