// copy with remote_src, a directory: ansible-core 2.14's copy module's four cases.
// - src ends with '/': its content goes into dest (dest created as a copy of src when missing);
// - otherwise into dest/<basename of src> when dest is a directory, and when dest is missing into
//   dest/<basename of src> too, dest created first (os.makedirs), as the module does.
// Into an existing directory only what differs is copied (filecmp.dircmp): entries missing there (a
// directory as a whole subtree, modes and timestamps kept, as copytree), regular files whose content
// differs (by sha256; the file's mode from src, as copymode); nothing is removed; an entry of another
// type on either side is left alone. owner/group apply to the whole destination tree (chown_recursive,
// links not followed); mode to the top destination only, as set_fs_attributes_if_different does.
// Unlike 2.14, every level converges in one run (its copy_common_dirs stops descending once a change
// was found), and a symlink is copied as a link wherever it is.
import { dirname } from 'node:path';
import { chownSpec } from '../../transports/write-script.js';
import type { Change } from '../types.js';
import { planAttrs } from '../kit/attrs.js';
import { resolveMode } from '../kit/mode.js';
import { quoteWord } from '../kit/shell-words.js';
import { asStat, fail, type RemoteCopyArgs } from './remote-file.js';
import { inDestPath, stripSlash, type PathInfo, type RemoteCopyState, type TreeEntry } from './remote-read.js';

interface Plan {
  /** The directory the tree is copied into (or as). */
  root: string;
  rootInfo: PathInfo;
  rootTree: TreeEntry[];
  /** The path mode (and Ansible's set_fs_attributes) applies to, and its state before the run. */
  top: string;
  topInfo: PathInfo;
  /** os.makedirs of root before its entries are copied. */
  mkdir: boolean;
}

const ABSENT: PathInfo = { exists: false, isDir: false, isFile: false };

function choose(st: RemoteCopyState, a: RemoteCopyArgs): Plan {
  const dest = stripSlash(a.dest);
  if (st.dest.exists && !st.dest.isDir) throw fail(`dest ${a.dest} is not a directory: the directory ${a.src} cannot be copied onto it`);
  if (!st.dest.exists && !st.parentIsDir) throw fail(`Destination directory ${dirname(dest)} does not exist`);
  if (a.src.endsWith('/')) return { root: dest, rootInfo: st.dest, rootTree: st.destTree ?? [], top: dest, topInfo: st.dest, mkdir: false };
  const inDest = inDestPath(a.src, a.dest);
  if (!st.dest.exists) return { root: inDest, rootInfo: ABSENT, rootTree: [], top: dest, topInfo: ABSENT, mkdir: true };
  if (st.inDest.exists && !st.inDest.isDir) throw fail(`${inDest} is not a directory: the directory ${a.src} cannot be copied onto it`);
  return { root: inDest, rootInfo: st.inDest, rootTree: st.inDestTree ?? [], top: inDest, topInfo: st.inDest, mkdir: false };
}

const under = (rel: string, dirs: Set<string>) => {
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) if (dirs.has(rel.slice(0, i))) return true;
  return false;
};

/** The copies that bring root's tree up to src's, and the paths they create. */
function copies(src: string, p: Plan, srcTree: TreeEntry[]): { run: string[]; created: string[] } {
  const s = stripSlash(src);
  if (!p.rootInfo.exists && !p.mkdir) return { run: [`cp -RP --preserve=mode,timestamps -- ${quoteWord(s)} ${quoteWord(p.root)}`], created: [p.root] };
  const have = new Map(p.rootTree.map((e) => [e.rel, e]));
  const newDirs = new Set<string>();
  const run: string[] = p.mkdir ? [`mkdir -p -- ${quoteWord(p.root)}`] : [];
  const created: string[] = [];
  for (const e of srcTree) {
    if (under(e.rel, newDirs) || e.type === 'other') continue;
    const from = quoteWord(`${s}/${e.rel}`);
    const to = quoteWord(`${p.root}/${e.rel}`);
    const there = have.get(e.rel);
    if (there === undefined) {
      if (e.type === 'directory') newDirs.add(e.rel);
      run.push(e.type === 'directory' ? `cp -RP --preserve=mode,timestamps -- ${from} ${to}` : `cp -P --preserve=mode -- ${from} ${to}`);
      created.push(`${p.root}/${e.rel}`);
    } else if (e.type === 'file' && there.type === 'file') {
      if (e.sha256 === undefined) throw fail(`Source ${s}/${e.rel} not readable`);
      if (e.sha256 !== there.sha256) run.push(`cp --preserve=mode -- ${from} ${to}`);
    }
  }
  return { run, created };
}

const sameId = (want: string, name?: string, id?: number) => want === name || want === String(id);

/** chown_recursive: every path of the tree (the new ones as they are made) whose owner or group differs. */
function chowns(p: Plan, a: RemoteCopyArgs, created: string[]): string[] {
  const spec = chownSpec(a.owner, a.group);
  if (spec === undefined) return [];
  const differs = (e: { owner?: string; uid?: number; group?: string; gid?: number }) =>
    (a.owner !== undefined && !sameId(a.owner, e.owner, e.uid)) || (a.group !== undefined && !sameId(a.group, e.group, e.gid));
  const existing = [...(p.rootInfo.exists && differs(p.rootInfo) ? [p.root] : []), ...p.rootTree.filter(differs).map((e) => `${p.root}/${e.rel}`)];
  const fresh = p.mkdir ? [p.root] : created;
  return [
    ...existing.map((path) => `chown -h -- ${quoteWord(spec)} ${quoteWord(path)}`),
    ...fresh.map((path) => `chown -Rh -- ${quoteWord(spec)} ${quoteWord(path)}`),
  ];
}

/** mode (and owner/group, as set_fs_attributes, unless chowns() covers the path) on the top destination path. */
function topAttrs(p: Plan, a: RemoteCopyArgs, umask?: number): string[] {
  const ids = p.top === p.root ? {} : { owner: a.owner, group: a.group };
  if (p.topInfo.exists) return planAttrs(p.top, asStat(p.topInfo, umask), { mode: a.mode, ...ids }).flatMap((c) => c.run);
  const mode = resolveMode(a.mode, { exists: false, umask }, 'directory');
  const spec = chownSpec(ids.owner, ids.group);
  return [...(mode !== undefined ? [`chmod -- ${mode} ${quoteWord(p.top)}`] : []), ...(spec !== undefined ? [`chown -h -- ${quoteWord(spec)} ${quoteWord(p.top)}`] : [])];
}

export function planRemoteTree(st: RemoteCopyState, a: RemoteCopyArgs): Change[] {
  const p = choose(st, a);
  const { run, created } = copies(a.src, p, st.srcTree ?? []);
  const attrs = [...chowns(p, a, created), ...topAttrs(p, a, st.umask)];
  const changes: Change[] = [];
  if (run.length > 0) {
    changes.push({ summary: `copy ${a.src} into ${p.root} on the host (${run.length} command(s))`, after: [...created.map((c) => `+ ${c}`), ''].join('\n'), run });
  }
  if (attrs.length > 0) changes.push({ summary: `set ${[a.mode !== undefined && `mode ${a.mode}`, chownSpec(a.owner, a.group)].filter(Boolean).join(', ')} under ${p.root}`, run: attrs });
  return changes;
}
