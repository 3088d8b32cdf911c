// find.py's main loop, pure: the entries GNU find printed are put back in os.walk's order (per folder,
// its non-folders then its folders, in the order the folder lists them; then each folder in turn) and
// filtered as find.py filters them - depth, hidden, file type, patterns, age, size - counting what it
// examined. Whatever a match still depends on (contains, the checksum) is left to the details read.
import { fnmatch } from '../kit/fnmatch.js';
import { pyPattern } from '../kit/py-regex.js';
import type { PathRead, WalkRead } from './probe.js';
import { posixJoin, posixNormpath, slashes } from './py-path.js';

export interface FindFilter {
  patterns: string[];
  excludes?: string[];
  use_regex: boolean;
  file_type: 'any' | 'directory' | 'file' | 'link';
  age?: number;
  age_stamp: 'atime' | 'ctime' | 'mtime';
  size?: number;
  recurse: boolean;
  hidden: boolean;
  depth?: number;
  get_checksum: boolean;
  contains?: string;
}

interface Entry {
  rel: string;
  name: string;
  type: string;
  target: string;
  stat: Record<string, unknown>;
}

/** A match: its result record, and whether it still needs its content read (contains) or its sha1. */
export interface Candidate {
  record: Record<string, unknown>;
  needsContent: boolean;
  needsChecksum: boolean;
}

export interface Selection {
  candidates: Candidate[];
  examined: number;
  skipped: Record<string, string>;
  warnings: string[];
}

/** Python's st_*time: seconds + nanoseconds * 1e-9 (GNU find prints ten fraction digits). */
function pyTime(text: string): number {
  const [sec, frac = '0'] = text.split('.');
  return Number(sec) + Number(frac.slice(0, 9).padEnd(9, '0')) * 1e-9;
}

const TYPE_BITS: Record<string, number> = { d: 0o040000, c: 0o020000, b: 0o060000, f: 0o100000, p: 0o010000, l: 0o120000, s: 0o140000 };

/** find.py's statinfo(), in its key order; a missing account name is '' as there. */
function statinfo(f: string[]): Record<string, unknown> {
  const perm = parseInt(f[2]!, 8);
  const bit = (b: number) => (perm & b) !== 0;
  const t = f[0]!;
  return {
    mode: perm.toString(8).padStart(4, '0'),
    isdir: t === 'd', ischr: t === 'c', isblk: t === 'b', isreg: t === 'f', isfifo: t === 'p', islnk: t === 'l', issock: t === 's',
    uid: Number(f[3]), gid: Number(f[4]), size: Number(f[7]), inode: Number(f[8]), dev: Number(f[9]), nlink: Number(f[10]),
    atime: pyTime(f[11]!), mtime: pyTime(f[12]!), ctime: pyTime(f[13]!),
    gr_name: f[6] === f[4] ? '' : f[6], pw_name: f[5] === f[3] ? '' : f[5],
    wusr: bit(0o200), rusr: bit(0o400), xusr: bit(0o100), wgrp: bit(0o020), rgrp: bit(0o040), xgrp: bit(0o010),
    woth: bit(0o002), roth: bit(0o004), xoth: bit(0o001), isuid: bit(0o4000), isgid: bit(0o2000),
  };
}

function toEntries(read: Extract<PathRead, { kind: 'walk' }>): Entry[] {
  return read.records.flatMap((f) => {
    const p = f[14]!;
    if (!p.startsWith(read.start) || !(f[0]! in TYPE_BITS)) return [];
    const rel = p.slice(read.start.length).replace(/^\/+/, '');
    return [{ rel, name: rel.slice(rel.lastIndexOf('/') + 1), type: f[0]!, target: f[1]!, stat: statinfo(f) }];
  });
}

/** Python's re.match: the pattern anchored at the start of the text. */
export function pyMatch(pattern: string, text: string): boolean {
  const re = pyPattern(pattern).re;
  return new RegExp(re.source, `${re.flags.replace('g', '')}y`).test(text);
}

function pfilter(name: string, f: FindFilter): boolean {
  const test = f.use_regex ? (p: string) => pyMatch(p, name) : (p: string) => fnmatch(name, p);
  if (!f.patterns.some(test)) return false;
  return !(f.excludes ?? []).some(test);
}

function agefilter(stat: Record<string, unknown>, now: number, f: FindFilter): boolean {
  if (f.age === undefined) return true;
  const elapsed = now - (stat[f.age_stamp] as number);
  return f.age >= 0 ? elapsed >= Math.abs(f.age) : elapsed <= Math.abs(f.age);
}

function sizefilter(stat: Record<string, unknown>, f: FindFilter): boolean {
  if (f.size === undefined) return true;
  const size = stat.size as number;
  return f.size >= 0 ? size >= Math.abs(f.size) : size <= Math.abs(f.size);
}

/** One entry through find.py's type branches; undefined when it does not match. */
function judge(e: Entry, fsname: string, now: number, f: FindFilter): Candidate | undefined {
  const record = { path: fsname, ...e.stat };
  const common = () => pfilter(e.name, f) && agefilter(e.stat, now, f);
  const reg = e.type === 'f';
  if (f.file_type === 'any') {
    if (!common() || (reg && !sizefilter(e.stat, f))) return undefined;
    return { record, needsContent: false, needsChecksum: reg && f.get_checksum };
  }
  if (f.file_type === 'directory' && e.type === 'd' && common()) return { record, needsContent: false, needsChecksum: false };
  if (f.file_type === 'file' && reg && common() && sizefilter(e.stat, f)) return { record, needsContent: f.contains !== undefined, needsChecksum: f.get_checksum };
  if (f.file_type === 'link' && e.type === 'l' && common()) return { record, needsContent: false, needsChecksum: false };
  return undefined;
}

/** The folder find reported it could not read (os.walk's error stops the walk of this path there). */
function failedFolder(errors: string[], start: string): { rel: string; msg: string } | undefined {
  for (const line of errors) {
    const m = /^find: '(.*)': (.*)$/.exec(line);
    if (!m || !m[1]!.startsWith(start)) continue;
    const errno = m[2] === 'Permission denied' ? '[Errno 13] ' : '';
    return { rel: m[1]!.slice(start.length).replace(/^\/+/, ''), msg: `${errno}${m[2]}: '${m[1]}'` };
  }
  return undefined;
}

function walkOne(npath: string, read: Extract<PathRead, { kind: 'walk' }>, now: number, f: FindFilter, sel: Selection): void {
  const children = new Map<string, Entry[]>();
  for (const e of toEntries(read)) {
    const parent = e.rel.includes('/') ? e.rel.slice(0, e.rel.lastIndexOf('/')) : '';
    children.set(parent, [...(children.get(parent) ?? []), e]);
  }
  const failed = failedFolder(read.errors, read.start);
  const wpath = `${npath.replace(/\/+$/, '')}/`;
  const visit = (rel: string): boolean => {
    if (failed && failed.rel === rel) {
      sel.skipped[npath] = failed.msg;
      sel.warnings.push(`Skipped '${npath}' path due to this access issue: ${failed.msg}\n`);
      return false;
    }
    const list = children.get(rel) ?? [];
    const dirs = list.filter((e) => e.target === 'd');
    sel.examined += list.length;
    const root = rel === '' ? npath : posixJoin(npath, rel);
    let pruned = false;
    for (const e of [...list.filter((x) => x.target !== 'd'), ...dirs]) {
      const fsname = posixNormpath(posixJoin(root, e.name));
      if (f.depth && slashes(fsname) - slashes(wpath) + 1 > f.depth) {
        pruned = true;
        continue;
      }
      if (e.name.startsWith('.') && !f.hidden) continue;
      const c = judge(e, fsname, now, f);
      if (c) sel.candidates.push(c);
    }
    if (!f.recurse || pruned) return true;
    return dirs.every((d) => visit(d.rel));
  };
  visit('');
}

export function selectEntries(walk: WalkRead, paths: string[], f: FindFilter): Selection {
  const sel: Selection = { candidates: [], examined: 0, skipped: {}, warnings: [] };
  paths.forEach((p, i) => {
    const npath = p === '~' ? walk.home : p.startsWith('~/') ? walk.home + p.slice(1) : p;
    const read = walk.paths[i]!;
    if (read.kind === 'walk') return walkOne(npath, read, walk.now, f, sel);
    sel.skipped[npath] = `'${npath}' is not a directory`;
    sel.warnings.push(`Skipped '${npath}' path due to this access issue: ${sel.skipped[npath]}\n`);
  });
  return sel;
}
