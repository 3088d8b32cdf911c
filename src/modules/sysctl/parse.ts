// Pure parts of sysctl: the /proc/sys path of a key, the probe's runtime line, and the edit of a
// sysctl.d file (last assignment wins, as systemd-sysctl reads it).
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';
import { parseStat, type FileStat } from '../kit/file-stat.js';
import { joinLines, splitLines } from '../kit/lines.js';

/**
 * Why `name` is not a sysctl key, or undefined. sysctl(8) swaps '.' and '/' to find the file under
 * /proc/sys, warns on repeated separators and refuses a path that resolves outside /proc/sys: here
 * a key is words joined by single '.' or '/' (an empty word is how `x.//.//etc` became `x/../../etc`).
 */
export function sysctlNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(name)) return 'may hold only letters, digits and _ . / - and must start with a letter, digit or _';
  if (name.split(/[./]/).some((w) => w === '')) return "has an empty word (a repeated or trailing '.' or '/'): its /proc/sys path would not stay under /proc/sys";
  return undefined;
}

/** net.ipv4.conf.eth0/100.rp_filter -> /proc/sys/net/ipv4/conf/eth0.100/rp_filter ('.' and '/' swap, as sysctl(8) does). */
export const procPath = (name: string) => '/proc/sys/' + name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));

/** Values compare by their words: the kernel prints tabs (`32768\t60999`), people write spaces. */
export const normValue = (v: string) => v.trim().split(/\s+/).join(' ');

export interface SysctlState {
  /** undefined when the key does not exist in /proc/sys. */
  runtime?: string;
  file: FileStat;
}

export function parseSysctl(out: ProbeOutput): SysctlState {
  const line = out.stdout.split('\n').find((l) => l.startsWith('runtime'));
  if (line === undefined) throw new ProbeParseError('sysctl probe printed no runtime line', out.stdout);
  return { runtime: line.startsWith('runtime:') ? normValue(line.slice(8)) : undefined, file: parseStat(out) };
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const keyRe = (name: string) => new RegExp(`^[ \\t]*-?${esc(name).replace(/\\\./g, '[./]')}[ \\t]*=[ \\t]*(.*?)[ \\t]*$`);

/** The value the file assigns to `name` (its last assignment), if any. */
export function fileValue(text: string, name: string): string | undefined {
  const re = keyRe(name);
  let v: string | undefined;
  for (const l of splitLines(text).lines) {
    const m = re.exec(l);
    if (m) v = normValue(m[1]);
  }
  return v;
}

/** New file text: the last assignment rewritten (others dropped) or `name=value` appended; absent drops them all. */
export function editSysctlFile(text: string, name: string, value: string | undefined): string {
  const { lines, finalNewline } = splitLines(text);
  const re = keyRe(name);
  const hits = lines.map((l, i) => (re.test(l) ? i : -1)).filter((i) => i >= 0);
  if (value === undefined) {
    if (hits.length === 0) return text;
    return joinLines(lines.filter((_l, i) => !hits.includes(i)), finalNewline);
  }
  if (hits.length > 0 && hits.length === 1 && fileValue(lines[hits[0]], name) === normValue(value)) return text;
  const assignment = `${name}=${value}`;
  if (hits.length === 0) return joinLines([...lines, assignment], true);
  const last = hits[hits.length - 1];
  return joinLines(lines.flatMap((l, i) => (i === last ? [assignment] : hits.includes(i) ? [] : [l])), finalNewline);
}
