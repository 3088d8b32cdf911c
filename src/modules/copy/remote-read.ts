// copy with remote_src: the one read of the host it needs. src (links followed, as Ansible's
// os.path.isfile/sha1 follow them), dest, dest/<basename of src> (where the copy lands when dest is a
// directory) and dest's parent, each with its type and sha256 computed on the host (nothing is shipped
// back); when src is a directory, the trees of src and of the possible destinations, NUL-separated and
// base64 on the wire so names are data.
import { basename, dirname } from 'node:path';
import { ProbeParseError } from '../../errors.js';
import type { Probe } from '../../probe/types.js';
import { need, readSections, section } from '../../probe/sections.js';
import { quoteWord } from '../kit/shell-words.js';
import type { FileType } from '../kit/file-stat.js';
import { UMASK_LINE } from '../kit/stat-probe.js';

export interface PathInfo {
  exists: boolean;
  /** The path itself (a link is 'link'). */
  type?: FileType;
  /** Through a link: a directory, a regular file. */
  isDir: boolean;
  isFile: boolean;
  mode?: string;
  owner?: string;
  group?: string;
  uid?: number;
  gid?: number;
  /** sha256 of the content (through a link) when it is a readable regular file. */
  sha256?: string;
}

export interface TreeEntry {
  /** Relative to the tree's root. */
  rel: string;
  type: FileType;
  mode: string;
  owner: string;
  group: string;
  uid: number;
  gid: number;
  sha256?: string;
}

export interface RemoteCopyState {
  remote: true;
  umask?: number;
  src: PathInfo;
  dest: PathInfo;
  /** dest/<basename of src>. */
  inDest: PathInfo;
  parentIsDir: boolean;
  /** When src is a directory: its tree, and those of dest and inDest when they are directories. */
  srcTree?: TreeEntry[];
  destTree?: TreeEntry[];
  inDestTree?: TreeEntry[];
}

/** dest with a trailing '/' names a directory; Ansible joins basename(src) onto it. */
export const stripSlash = (p: string): string => (p.length > 1 ? p.replace(/\/+$/, '') : p);
export const inDestPath = (src: string, dest: string): string => `${stripSlash(dest)}/${basename(stripSlash(src))}`;

function pathInfoCommand(path: string, follow: boolean): string {
  const f = quoteWord(path);
  const exists = follow ? `[ -e ${f} ]` : `{ [ -e ${f} ] || [ -L ${f} ]; }`;
  return (
    `if ${exists}; then stat ${follow ? '-L ' : ''}-c 'stat:%F|%a|%U|%G|%u|%g' -- ${f}; ` +
    `if [ -d ${f} ]; then echo isdir; fi; if [ -f ${f} ]; then echo isfile; printf 'sha256:'; sha256sum < ${f}; fi; ` +
    `else echo stat:absent; fi`
  );
}

// One record per entry (`type|mode|uid|gid|user|group`, then the relative name), an empty token,
// then sha256sum's `hash  ./name` records of the regular files. Unreadable files have no hash.
function treeCommand(path: string): string {
  const f = quoteWord(path);
  return (
    `if [ -d ${f} ]; then printf 'tree:'; ( cd -- ${f} && find . -mindepth 1 -printf '%y|%m|%U|%G|%u|%g\\0%P\\0' && printf '\\0' && ` +
    `find . -mindepth 1 -type f -exec sha256sum -z -- {} + ) 2>/dev/null | base64 -w0; echo; fi`
  );
}

export function remoteCopyProbe(src: string, dest: string): Probe<RemoteCopyState> {
  const inDest = inDestPath(src, dest);
  const parent = dirname(stripSlash(dest));
  const trees = [section('src-tree', treeCommand(src)), section('dest-tree', treeCommand(dest)), section('in-tree', treeCommand(inDest))].join('; ');
  const command = [
    UMASK_LINE,
    section('src', pathInfoCommand(src, true)),
    section('dest', pathInfoCommand(dest, false)),
    section('in', pathInfoCommand(inDest, false)),
    section('parent', `if [ -d ${quoteWord(parent)} ]; then echo isdir; fi`),
    `if [ -d ${quoteWord(src)} ]; then ${trees}; fi`,
  ].join('; ');
  return { command, parse: (out) => parseRemoteCopy(out.stdout) };
}

const TYPES: Record<string, FileType> = { 'regular file': 'file', 'regular empty file': 'file', directory: 'directory', 'symbolic link': 'link' };

function parsePathInfo(text: string, raw: string): PathInfo {
  const lines = text.split('\n');
  const stat = lines.find((l) => l.startsWith('stat:'));
  if (stat === undefined) throw new ProbeParseError(`copy: no stat line in ${JSON.stringify(text)}`, raw);
  if (stat === 'stat:absent') return { exists: false, isDir: false, isFile: false };
  const f = stat.slice(5).split('|');
  if (f.length !== 6) throw new ProbeParseError(`copy: unexpected stat line ${JSON.stringify(stat)}`, raw);
  const sha = lines.find((l) => l.startsWith('sha256:'));
  const hex = sha === undefined ? undefined : /^sha256:([0-9a-f]{64})\b/.exec(sha)?.[1];
  return {
    exists: true, type: TYPES[f[0]] ?? 'other', isDir: lines.includes('isdir'), isFile: lines.includes('isfile'),
    mode: f[1], owner: f[2], group: f[3], uid: Number(f[4]), gid: Number(f[5]), ...(hex ? { sha256: hex } : {}),
  };
}

const TREE_TYPES: Record<string, FileType> = { f: 'file', d: 'directory', l: 'link' };

export function parseTree(line: string, raw: string): TreeEntry[] {
  const tokens = Buffer.from(line.replace(/^tree:/, ''), 'base64').toString('utf8').split('\0');
  const entries: TreeEntry[] = [];
  let i = 0;
  for (; i + 1 < tokens.length && tokens[i] !== ''; i += 2) {
    const f = tokens[i].split('|');
    if (f.length !== 6 || !/^[0-7]+$/.test(f[1])) throw new ProbeParseError(`copy: unexpected tree record ${JSON.stringify(tokens[i])}`, raw);
    if (tokens[i + 1].includes('\uFFFD')) throw new ProbeParseError(`copy: a name in the tree is not valid UTF-8: ${JSON.stringify(tokens[i + 1])}`, raw);
    entries.push({ rel: tokens[i + 1], type: TREE_TYPES[f[0]] ?? 'other', mode: f[1], uid: Number(f[2]), gid: Number(f[3]), owner: f[4], group: f[5] });
  }
  if (tokens[i] !== '') throw new ProbeParseError('copy: a tree listing is cut short', raw);
  const byRel = new Map(entries.map((e) => [e.rel, e]));
  for (const rec of tokens.slice(i + 1)) {
    const m = /^([0-9a-f]{64}) {2}\.\/([\s\S]*)$/.exec(rec);
    const e = m ? byRel.get(m[2]) : undefined;
    if (e) e.sha256 = m![1];
  }
  return entries;
}

export function parseRemoteCopy(stdout: string): RemoteCopyState {
  const sections = readSections(stdout);
  const umaskLine = stdout.split('\n').find((l) => /^umask:[0-7]{1,4}$/.test(l));
  const tree = (name: string) => {
    const s = sections.get(name);
    const line = s?.out.split('\n').find((l) => l.startsWith('tree:'));
    return line === undefined ? undefined : parseTree(line, stdout);
  };
  const state: RemoteCopyState = {
    remote: true,
    src: parsePathInfo(need(sections, 'src', stdout).out, stdout),
    dest: parsePathInfo(need(sections, 'dest', stdout).out, stdout),
    inDest: parsePathInfo(need(sections, 'in', stdout).out, stdout),
    parentIsDir: need(sections, 'parent', stdout).out.split('\n').includes('isdir'),
  };
  if (umaskLine !== undefined) state.umask = parseInt(umaskLine.slice(6), 8);
  for (const [key, name] of [['srcTree', 'src-tree'], ['destTree', 'dest-tree'], ['inDestTree', 'in-tree']] as const) {
    const t = tree(name);
    if (t) state[key] = t;
  }
  return state;
}
