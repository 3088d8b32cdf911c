// Pure reading of stat's probe output into Ansible's `stat` dictionary (ansible-core 2.14's
// stat.py: format_output, then access, symlink, accounts, checksums, mime, attributes - in that
// key order, so a registered result prints as Ansible's does).
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';

/** lsattr's flag letters (module_utils/common/file.py FILE_ATTRIBUTES). */
const FILE_ATTRIBUTES: Record<string, string> = {
  A: 'noatime', a: 'append', c: 'compressed', C: 'nocow', d: 'nodump', D: 'dirsync', e: 'extents', E: 'encrypted',
  h: 'blocksize', i: 'immutable', I: 'indexed', j: 'journalled', N: 'inline', s: 'zero', S: 'synchronous',
  t: 'notail', T: 'blockroot', u: 'undelete', X: 'compressedraw', Z: 'compresseddirty',
};

export type StatRead = { kind: 'found'; stat: Record<string, unknown> } | { kind: 'missing' } | { kind: 'error'; msg: string };

const S_IFMT = 0o170000;
const TYPE = { dir: 0o040000, chr: 0o020000, blk: 0o060000, reg: 0o100000, fifo: 0o010000, lnk: 0o120000, sock: 0o140000 };

/** Python's st_*time: seconds + nanoseconds * 1e-9 in double arithmetic (CPython's fill_time). */
function pyTime(text: string): number {
  const [sec, nsec = '0'] = text.split('.');
  return Number(sec) + Number(nsec.padEnd(9, '0')) * 1e-9;
}

/** glibc's makedev(): the st_rdev Python reports, from stat's hex major and minor. */
function makedev(major: number, minor: number): number {
  const low = (minor & 0xff) | ((major & 0xfff) << 8) | ((minor & ~0xff) * 4096);
  return low + Math.floor(major / 4096) * 2 ** 44;
}

const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** Ansible's mode fields from the raw st_mode. */
function modeFields(mode: number): Record<string, unknown> {
  const type = mode & S_IFMT;
  return {
    mode: (mode & 0o7777).toString(8).padStart(4, '0'),
    isdir: type === TYPE.dir, ischr: type === TYPE.chr, isblk: type === TYPE.blk, isreg: type === TYPE.reg,
    isfifo: type === TYPE.fifo, islnk: type === TYPE.lnk, issock: type === TYPE.sock,
  };
}

function permFields(mode: number): Record<string, boolean> {
  const bit = (b: number) => (mode & b) !== 0;
  return {
    wusr: bit(0o200), rusr: bit(0o400), xusr: bit(0o100), wgrp: bit(0o020), rgrp: bit(0o040), xgrp: bit(0o010),
    woth: bit(0o002), roth: bit(0o004), xoth: bit(0o001), isuid: bit(0o4000), isgid: bit(0o2000),
  };
}

/** `file -b --mime-type --mime-encoding` output, as stat.py splits it; unknown when it does not fit. */
function mimeFields(line: string | undefined): { mimetype: string; charset: string } {
  const out = line === undefined ? '' : b64(line).trim();
  const parts = out.split(';');
  const charset = parts[1]?.split('=')[1];
  if (parts.length !== 2 || charset === undefined) return { mimetype: 'unknown', charset: 'unknown' };
  return { mimetype: parts[0].trim(), charset: charset.trim() };
}

function attrFields(line: string | undefined): Record<string, unknown> {
  const words = line === undefined ? [] : b64(line).trim().split(/\s+/);
  if (words.length < 2) return { version: null, attributes: [], attr_flags: '' };
  const flags = words[1].replace(/-/g, '');
  return { version: words[0], attributes: [...flags].flatMap((c) => (FILE_ATTRIBUTES[c] ? [FILE_ATTRIBUTES[c]] : [])), attr_flags: flags };
}

export interface ParseOptions {
  path: string;
  mime: boolean;
  attributes: boolean;
}

export function parseStatRead(out: ProbeOutput, o: ParseOptions): StatRead {
  const lines = new Map<string, string>();
  for (const l of out.stdout.split('\n')) {
    const i = l.indexOf(':');
    if (i > 0 && !lines.has(l.slice(0, i))) lines.set(l.slice(0, i), l.slice(i + 1));
  }
  const error = lines.get('error');
  if (error !== undefined) return error === 'No such file or directory' ? { kind: 'missing' } : { kind: 'error', msg: error };
  const raw = lines.get('stat');
  const f = raw?.split('|') ?? [];
  if (f.length !== 14) throw new ProbeParseError(`stat probe: expected a stat line of 14 fields for ${o.path}`, out.stdout);
  const mode = parseInt(f[0], 16);
  const num = (i: number) => Number(f[i]);
  const stat: Record<string, unknown> = {
    exists: true, path: o.path, ...modeFields(mode),
    uid: num(1), gid: num(2), size: num(3), inode: num(4), dev: num(5), nlink: num(6),
    atime: pyTime(f[7]), mtime: pyTime(f[8]), ctime: pyTime(f[9]),
    ...permFields(mode),
    blocks: num(10), block_size: num(11), device_type: makedev(parseInt(f[12], 16), parseInt(f[13], 16)),
  };
  const access = lines.get('access') ?? '';
  Object.assign(stat, { readable: access.includes('r'), writeable: access.includes('w'), executable: access.includes('x') });
  if (stat.islnk) Object.assign(stat, { lnk_source: b64(lines.get('source') ?? '').replace(/\0$/, ''), lnk_target: b64(lines.get('target') ?? '').replace(/\0$/, '') });
  // stat prints UNKNOWN for an id without a name; Ansible then leaves the key out.
  const user = lines.get('user');
  if (user !== undefined && user !== 'UNKNOWN') stat.pw_name = user;
  const group = lines.get('group');
  if (group !== undefined && group !== 'UNKNOWN') stat.gr_name = group;
  const md5 = lines.get('md5');
  if (md5 !== undefined) stat.md5 = md5.split(' ')[0];
  const checksum = lines.get('checksum');
  if (checksum !== undefined) stat.checksum = checksum.split(' ')[0];
  if (o.mime) Object.assign(stat, mimeFields(lines.get('mime')));
  if (o.attributes) Object.assign(stat, attrFields(lines.get('attr')));
  return { kind: 'found', stat };
}
