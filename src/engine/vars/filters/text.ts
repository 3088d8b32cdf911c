// String and scalar filters with Ansible's names and Python's behaviour.
import { pyStr, pyTruthy } from '../py.js';
import { pySplit } from '../py-methods.js';
import { TemplateFailure, Undef } from '../undefined.js';
import { arg, splitArgs, type Fn } from './args.js';
import { expandReplacement, groupCount, pyRegex, pySub } from './regex.js';
import { allMatches, firstMatch } from './bounded-regex.js';

/** Ansible's to_bool: only yes/on/1/true (any case) and 1 are true. */
export function toBool(v: unknown): boolean | null {
  if (v === null || v === undefined || typeof v === 'boolean') return v ?? null; // Ansible: None stays None
  const s = typeof v === 'string' ? v.toLowerCase() : v;
  return s === 'yes' || s === 'on' || s === '1' || s === 'true' || s === 1;
}

/** Jinja's int: int(str, base), else int(float(v)), else the default. */
function toInt(v: unknown, ...rest: unknown[]): number {
  const a = splitArgs(rest);
  const dflt = arg(a, 0, 'default', 0);
  const base = Number(arg(a, 1, 'base', 10));
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : dflt;
  if (typeof v === 'string') {
    const s = v.trim().replace(/_/g, '').toLowerCase();
    const body = base === 16 ? s.replace(/^([+-]?)0x/, '$1') : base === 8 ? s.replace(/^([+-]?)0o/, '$1') : base === 2 ? s.replace(/^([+-]?)0b/, '$1') : s;
    const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
    if (body !== '' && new RegExp(`^[+-]?[${digits}]+$`).test(body)) return parseInt(body, base);
    const f = toFloat<null>(v, null);
    return f === null ? dflt : Math.trunc(f);
  }
  return dflt;
}

function toFloat<D>(v: unknown, dflt: D): number | D {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const s = v.trim().replace(/_/g, '').toLowerCase();
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) return parseFloat(s);
    if (/^[+-]?(inf|infinity)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(s)) return NaN;
  }
  return dflt;
}

function regexFlags(rest: unknown[]): { ignorecase?: unknown; multiline?: unknown } {
  const { kw } = splitArgs(rest);
  return { ignorecase: kw.ignorecase, multiline: kw.multiline };
}

/** Ansible's regex_search: the match, or the listed groups ('\\1', '\\g<name>'), or None. */
function regexSearch(value: unknown, pattern: string, ...rest: unknown[]): unknown {
  const { pos } = splitArgs(rest);
  const m = firstMatch(pyRegex(pattern, regexFlags(rest)), pyStr(value));
  if (!m) return null;
  if (pos.length === 0) return m[0];
  return pos.map((g) => expandReplacement(String(g), m.map((x) => x ?? ''), m.groups));
}

function regexFindall(value: unknown, pattern: string, ...rest: unknown[]): unknown[] {
  const a = splitArgs(rest);
  const re = pyRegex(pattern, { ignorecase: arg(a, 1, 'ignorecase', false), multiline: arg(a, 0, 'multiline', false), global: true });
  const n = groupCount(re);
  return allMatches(re, pyStr(value)).map((m) => (n === 0 ? m[0] : n === 1 ? (m[1] ?? '') : m.slice(1).map((x) => x ?? '')));
}

function defaultFilter(v: unknown, dflt: unknown = '', boolean: unknown = false): unknown {
  if (v instanceof Undef) return dflt;
  if (pyTruthy(boolean) && !pyTruthy(v)) return dflt;
  return v;
}

function mandatory(v: unknown, msg?: unknown): unknown {
  if (v instanceof Undef) {
    throw new TemplateFailure(typeof msg === 'string' ? msg : `Mandatory variable '${v.path}' not defined.`, typeof msg !== 'string' ? false : true);
  }
  return v;
}

export const textFilters: Record<string, Fn> = {
  default: defaultFilter,
  d: defaultFilter,
  mandatory,
  bool: toBool,
  int: toInt,
  float: (v: unknown, ...rest: unknown[]) => toFloat<unknown>(v, arg<unknown>(splitArgs(rest), 0, 'default', 0)),
  string: (v: unknown) => pyStr(v),
  lower: (v: unknown) => pyStr(v).toLowerCase(),
  upper: (v: unknown) => pyStr(v).toUpperCase(),
  capitalize: (v: unknown) => pyStr(v).charAt(0).toUpperCase() + pyStr(v).slice(1).toLowerCase(),
  trim: (v: unknown, chars?: unknown) => {
    const s = pyStr(v);
    if (chars === undefined || chars === null) return s.trim();
    const set = new Set(String(chars));
    let a = 0;
    let b = s.length;
    while (a < b && set.has(s[a]!)) a++;
    while (b > a && set.has(s[b - 1]!)) b--;
    return s.slice(a, b);
  },
  replace: (v: unknown, old: unknown, rep: unknown, count?: unknown) => {
    const parts = pyStr(v).split(pyStr(old));
    const n = count === undefined || count === null ? -1 : Number(count);
    if (n < 0 || parts.length <= n + 1) return parts.join(pyStr(rep));
    return parts.slice(0, n + 1).join(pyStr(rep)) + pyStr(old) + parts.slice(n + 1).join(pyStr(old));
  },
  regex_replace: (v: unknown, pattern: unknown, ...rest: unknown[]) => {
    const a = splitArgs(rest);
    const flags = { ignorecase: arg(a, 1, 'ignorecase', false), multiline: arg(a, 2, 'multiline', false) };
    return pySub(pyStr(v), String(pattern), String(arg(a, 0, 'replacement', '')), flags, Number(arg(a, 3, 'count', 0)));
  },
  regex_search: regexSearch,
  regex_findall: regexFindall,
  regex_escape: (v: unknown) => pyStr(v).replace(/[.^$*+?{}[\]\\|()]/g, '\\$&'),
  split: (v: unknown, sep?: unknown, max?: unknown) => pySplit(pyStr(v), sep, max ?? -1),
  ternary: (v: unknown, t: unknown, f: unknown, none?: unknown) => {
    if ((v === null || v === undefined) && none !== undefined && none !== null) return none;
    return pyTruthy(v) ? t : f;
  },
};
