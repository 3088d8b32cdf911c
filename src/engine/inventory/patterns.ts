// Host patterns as Ansible's InventoryManager evaluates them (plays' `hosts:` and --limit):
// `a,b` / `a:b` unions, `&b` intersections, `!b` exclusions (applied in that order whatever
// their position), globs (`web*`), regexes (`~web\d+`), subscripts (`webservers[0]`,
// `webservers[1:3]`) and `@file` (one host per line, e.g. a .retry file).
import { readInputFile } from '../input-file.js';
import { BadInputError } from '../../errors.js';
import { groupHosts } from './data.js';
import { fnmatchToRegExp } from './fnmatch.js';
import { parseAddress } from './host-range.js';
import { LOCALHOST_NAMES, type Inventory } from './types.js';

export interface SelectOptions {
  /** --limit values; each is a pattern, together they narrow the selection. */
  limit?: string[];
}

const SUBSCRIPT = /^(.+)\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]*))\]$/;

/** Ansible's split_host_pattern(): commas always split; colons only when the whole is not a host[:port]. */
export function splitHostPattern(pattern: string | string[]): string[] {
  if (Array.isArray(pattern)) return pattern.flatMap((p) => splitHostPattern(p));
  let parts: string[];
  if (pattern.includes(',')) parts = pattern.split(',');
  else if (parseAddress(pattern)) parts = [pattern];
  else parts = pattern.match(/(?:[^\s:[\]]|\[[^\]]*\])+/g) ?? [];
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Regulars first, then `&` intersections, then `!` exclusions; only modifiers means `all` first. */
export function orderPatterns(patterns: string[]): string[] {
  const regular = patterns.filter((p) => p && p[0] !== '!' && p[0] !== '&');
  const inter = patterns.filter((p) => p[0] === '&');
  const excl = patterns.filter((p) => p[0] === '!');
  return [...(regular.length ? regular : ['all']), ...inter, ...excl];
}

function compile(pattern: string): RegExp {
  if (pattern[0] !== '~') return fnmatchToRegExp(pattern);
  // Python's re.match(): anchored at the start only. Named groups use (?P<name>...) there.
  const source = pattern.slice(1).replace(/\(\?P</g, '(?<');
  try {
    return new RegExp(`^(?:${source})`);
  } catch (e) {
    throw new BadInputError(`invalid host pattern '${pattern}': ${(e as Error).message}; expected a regular expression after '~'`);
  }
}

function enumerate(inv: Inventory, pattern: string): string[] {
  const re = compile(pattern);
  const results: string[] = [];
  const groups = [...inv.groups.keys()].filter((g) => re.test(g));
  for (const g of groups) results.push(...groupHosts(inv, g));
  if (!groups.length || pattern[0] === '~' || /[.?*[]/.test(pattern)) {
    for (const h of inv.hosts.keys()) if (re.test(h)) results.push(h);
  }
  if (!results.length && LOCALHOST_NAMES.includes(pattern)) results.push(pattern); // implicit localhost
  return [...new Set(results)];
}

function matchOne(inv: Inventory, raw: string): string[] {
  const pattern = raw[0] === '&' || raw[0] === '!' ? raw.slice(1) : raw;
  if (!pattern) throw new BadInputError(`invalid host pattern '${raw}': expected a name after '${raw[0]}'`);
  const m = pattern[0] === '~' ? null : SUBSCRIPT.exec(pattern);
  if (!m) return enumerate(inv, pattern);
  const hosts = enumerate(inv, m[1]!);
  if (!hosts.length) return hosts;
  if (m[2] !== undefined) {
    const i = Number(m[2]);
    const h = hosts.at(i);
    if (h === undefined || i >= hosts.length) throw new BadInputError(`no hosts matched the subscripted pattern '${pattern}' (${hosts.length} hosts)`);
    return [h];
  }
  const start = Number(m[3]);
  const end = m[5] ? Number(m[5]) : hosts.length - 1;
  return hosts.slice(start, end + 1);
}

/** Evaluate a list of single patterns (InventoryManager._evaluate_patterns). */
export function evaluatePatterns(inv: Inventory, patterns: string[]): string[] {
  let hosts: string[] = [];
  for (const p of orderPatterns(patterns)) {
    if (inv.hosts.has(p)) {
      if (!hosts.includes(p)) hosts.push(p);
      continue;
    }
    const that = matchOne(inv, p);
    if (p[0] === '!') {
      const s = new Set(that);
      hosts = hosts.filter((h) => !s.has(h));
    } else if (p[0] === '&') {
      const s = new Set(that);
      hosts = hosts.filter((h) => s.has(h));
    } else {
      const have = new Set(hosts);
      hosts.push(...that.filter((h) => !have.has(h)));
    }
  }
  return hosts;
}

/** `@file` entries of a --limit are replaced by the host names listed in the file. */
function expandLimitFiles(patterns: string[]): string[] {
  return patterns.flatMap((p) => {
    if (p[0] !== '@') return [p];
    const file = p.slice(1);
    const text = readInputFile(file, 'limit file');
    return text.split('\n').map((l) => l.trim()).filter(Boolean);
  });
}

/** Hosts selected by `pattern` and narrowed by `--limit`, in inventory order; may be empty. */
export function selectHosts(inv: Inventory, pattern: string | string[], opts: SelectOptions = {}): string[] {
  const patterns = expandLimitFiles(splitHostPattern(pattern));
  if (!patterns.length) throw new BadInputError(`empty host pattern ${JSON.stringify(pattern)}; expected a host, group or pattern such as 'all'`);
  let hosts = evaluatePatterns(inv, patterns);
  if (opts.limit?.length) {
    const subset = new Set(evaluatePatterns(inv, expandLimitFiles(splitHostPattern(opts.limit))));
    hosts = hosts.filter((h) => subset.has(h));
  }
  return hosts;
}
