// Host names with ranges and ports, as Ansible's parse_address() and
// expand_hostname_range() read them: `node[01:03]`, `node[a:c]`, `10.0.0.[1:3]`,
// `db[1:9:2]`, `web1:2222`, `[fe80::1]:22`.
import { BadInputError, type SourceLoc } from '../../errors.js';

const NUM_RANGE = String.raw`\[(?:[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const HEX_RANGE = String.raw`\[(?:[0-9a-f]+:[0-9a-f]+)(?::[0-9]+)?\]`;
const ALNUM_RANGE = String.raw`\[(?:[a-z]:[a-z]|[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const V4 = String.raw`(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]|${NUM_RANGE})`;
const V6 = String.raw`(?:[0-9a-f]{1,4}|${HEX_RANGE})`;
const LABEL = String.raw`(?:[\p{L}\p{N}_]|${ALNUM_RANGE})(?:[\p{L}\p{N}_-]|${ALNUM_RANGE})*(?<![_-])`;

const BRACKETED_HOSTPORT = /^\[(.+)\]:([0-9]+)$/;
const HOSTPORT = /^((?:[^:[\]]|\[[^\]]*\])*):([0-9]+)$/;
const IPV4 = new RegExp(String.raw`^(?:${V4}\.){3}${V4}$`, 'i');
// Transcribed from Ansible's addresses.py, including its quirk: only the first
// alternative is anchored at the start and only the last one at the end.
const IPV6 = new RegExp(
  '^(?:' +
    [
      `(?:${V6}:){7}${V6}`,
      `(?:${V6}:){1,6}:`,
      `(?:${V6}:)(?::${V6}){1,6}`,
      `(?:${V6}:){2}(?::${V6}){1,5}`,
      `(?:${V6}:){3}(?::${V6}){1,4}`,
      `(?:${V6}:){4}(?::${V6}){1,3}`,
      `(?:${V6}:){5}(?::${V6}){1,2}`,
      `(?:${V6}:){6}(?::${V6})`,
      `:(?::${V6}){1,6}`,
      `${V6}?::`,
      `(?:0:){6}(?:${V6}\\.){3}${V6}`,
      `::(?:ffff:)?(?:${V6}\\.){3}${V6}`,
      `(?:0:){5}ffff:(?:${V6}\\.){3}${V6}$`,
    ].join('|') +
    ')',
  'i',
);
const HOSTNAME = new RegExp(String.raw`^${LABEL}(?:\.${LABEL})*$`, 'iu');

export function isIpAddress(s: string): boolean {
  return IPV4.test(s) || IPV6.test(s);
}

/** Ansible's parse_address(allow_ranges=true); undefined when the text is not a host identifier. */
export function parseAddress(address: string): { host: string; port?: number } | undefined {
  let host = address;
  let port: number | undefined;
  for (const re of [BRACKETED_HOSTPORT, HOSTPORT]) {
    const m = re.exec(host);
    if (m) {
      host = m[1]!;
      port = Number(m[2]);
    }
  }
  // Names first: the IPv6 pattern is large (~10 ms to compile on first use) and needs a colon anyway.
  if (HOSTNAME.test(host) || IPV4.test(host) || (host.includes(':') && IPV6.test(host))) return { host, port };
  return undefined;
}

/** Split `pattern[:port]` and expand its ranges into host names (BaseInventoryPlugin._expand_hostpattern). */
export function expandHostPattern(pattern: string, loc?: SourceLoc): { hosts: string[]; port?: number } {
  const parsed = parseAddress(pattern);
  const base = parsed ? parsed.host : pattern;
  const hosts = base.includes('[') ? expandHostRange(base, loc) : [base];
  return { hosts, port: parsed?.port };
}

/** Hosts one range pattern may expand to; far above any real cluster, far below what exhausts memory. */
export const MAX_RANGE_HOSTS = 100_000;

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Expand the first [begin:end(:step)] and recurse on the rest, like expand_hostname_range(). */
export function expandHostRange(line: string, loc?: SourceLoc): string[] {
  const open = line.indexOf('[');
  const close = line.indexOf(']', open);
  const bad = (why: string): never => {
    throw new BadInputError(`malformed host range in '${line}': ${why}; expected [begin:end] or [begin:end:step], e.g. node[01:10] or node[a:f]`, loc);
  };
  if (open < 0) return [line];
  if (close < 0) bad("missing ']'");
  const head = line.slice(0, open);
  const tail = line.slice(close + 1);
  const bounds = line.slice(open + 1, close).split(':');
  if (bounds.length !== 2 && bounds.length !== 3) bad('wrong number of bounds');
  const beg = bounds[0] || '0';
  const end = bounds[1]!;
  const stepText = bounds[2] ?? '1';
  if (!end) bad('no end value');
  if (!/^[0-9]+$/.test(stepText) || Number(stepText) < 1) bad(`step '${stepText}' is not a positive integer`);
  const step = Number(stepText);
  // The rest of the name is expanded once: the product of all ranges is bounded before any is built.
  const tails = expandHostRange(tail, loc);
  const total = (count: number) => {
    if (count * tails.length > MAX_RANGE_HOSTS) bad(`it expands to ${(count * tails.length).toLocaleString('en')} hosts, more than ${MAX_RANGE_HOSTS.toLocaleString('en')}`);
  };
  let seq: string[];
  const ib = beg.length === 1 ? LETTERS.indexOf(beg) : -1;
  const ie = end.length === 1 ? LETTERS.indexOf(end) : -1;
  if (ib >= 0 && ie >= 0) {
    if (ib > ie) bad('begin is after end');
    total(Math.floor((ie - ib) / step) + 1);
    seq = [];
    for (let i = ib; i <= ie; i += step) seq.push(LETTERS[i]!);
  } else {
    if (!/^[0-9]+$/.test(beg) || !/^[0-9]+$/.test(end)) bad(`'${beg}:${end}' is neither numeric nor a single-letter range`);
    const b = Number(beg);
    const e = Number(end);
    if (b > e) bad('begin is after end');
    // A leading zero asks for zero-padding, and then both ends must have the same width.
    const width = beg.length > 1 && beg.startsWith('0') ? beg.length : 0;
    if (width && end.length !== width) bad('begin and end must have the same width when zero-padded');
    total(Math.floor((e - b) / step) + 1);
    seq = [];
    for (let i = b; i <= e; i += step) seq.push(width ? String(i).padStart(width, '0') : String(i));
  }
  return seq.flatMap((s) => tails.map((t) => head + s + t));
}
