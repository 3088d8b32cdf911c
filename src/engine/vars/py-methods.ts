// Python methods that Ansible users call on values inside templates: "x".startswith(...), d.items(),
// d.get('k', default), list.index(...). Looked up by memberLookup when the value has no such key.
import { pyEq, pyStr } from './py.js';
import { assignOwn, hasOwn, setOwn } from '../../own-keys.js';

type Method = (self: never, ...args: unknown[]) => unknown;

/** Python str.split: no separator means runs of whitespace, with leading/trailing whitespace ignored. */
export function pySplit(s: string, sep?: unknown, maxsplit: unknown = -1): string[] {
  const max = Number(maxsplit);
  if (sep === undefined || sep === null) {
    const out: string[] = [];
    let rest = s.replace(/^\s+/, '');
    while (rest.length > 0) {
      if (max >= 0 && out.length === max) {
        out.push(rest.replace(/\s+$/, ''));
        break;
      }
      const m = /\s+/.exec(rest);
      if (!m) {
        out.push(rest);
        break;
      }
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    return out;
  }
  const sp = String(sep);
  const parts = s.split(sp);
  if (max < 0 || parts.length <= max + 1) return parts;
  return [...parts.slice(0, max), parts.slice(max).join(sp)];
}

function stripChars(s: string, chars: unknown, left: boolean, right: boolean): string {
  if (chars === undefined || chars === null) {
    if (left) s = s.replace(/^\s+/, '');
    if (right) s = s.replace(/\s+$/, '');
    return s;
  }
  const set = new Set(String(chars));
  let a = 0;
  let b = s.length;
  if (left) while (a < b && set.has(s[a]!)) a++;
  if (right) while (b > a && set.has(s[b - 1]!)) b--;
  return s.slice(a, b);
}

const prefixes = (p: unknown): string[] => (Array.isArray(p) ? p.map(String) : [String(p)]);

const STR: Record<string, (s: string, ...a: unknown[]) => unknown> = {
  startswith: (s, p) => prefixes(p).some((x) => s.startsWith(x)),
  endswith: (s, p) => prefixes(p).some((x) => s.endsWith(x)),
  split: (s, sep, max) => pySplit(s, sep, max),
  rsplit: (s, sep, max) => (max === undefined ? pySplit(s, sep) : pySplit(s, sep, max)),
  splitlines: (s) => s.split(/\r?\n/).filter((x, i, a) => i < a.length - 1 || x !== ''),
  strip: (s, c) => stripChars(s, c, true, true),
  lstrip: (s, c) => stripChars(s, c, true, false),
  rstrip: (s, c) => stripChars(s, c, false, true),
  replace: (s, a, b, count) => {
    const parts = s.split(String(a));
    const n = count === undefined ? -1 : Number(count);
    if (n < 0 || parts.length <= n + 1) return parts.join(String(b));
    return parts.slice(0, n + 1).join(String(b)) + String(a) + parts.slice(n + 1).join(String(a));
  },
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
  capitalize: (s) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(),
  title: (s) => s.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase()),
  find: (s, x) => s.indexOf(String(x)),
  count: (s, x) => s.split(String(x)).length - 1,
  join: (s, items) => (items as unknown[]).map(pyStr).join(s),
  isdigit: (s) => /^\d+$/.test(s),
  isalpha: (s) => /^[a-zA-Z]+$/.test(s),
  isalnum: (s) => /^[a-zA-Z0-9]+$/.test(s),
  islower: (s) => /[a-z]/.test(s) && s === s.toLowerCase(),
  isupper: (s) => /[A-Z]/.test(s) && s === s.toUpperCase(),
  zfill: (s, w) => s.padStart(Number(w), '0'),
  ljust: (s, w, f = ' ') => s.padEnd(Number(w), String(f)),
  rjust: (s, w, f = ' ') => s.padStart(Number(w), String(f)),
  format: (s, ...args) => {
    let i = 0;
    return s.replace(/\{(\d*)\}/g, (_m, n: string) => pyStr(args[n === '' ? i++ : Number(n)]));
  },
};

const LIST: Record<string, (l: unknown[], ...a: unknown[]) => unknown> = {
  index: (l, x) => {
    const i = l.findIndex((e) => pyEq(e, x));
    if (i < 0) throw new Error(`${pyStr(x)} is not in list`);
    return i;
  },
  count: (l, x) => l.filter((e) => pyEq(e, x)).length,
  append: (l, x) => void l.push(x),
  extend: (l, x) => void l.push(...(x as unknown[])),
  insert: (l, i, x) => void l.splice(Number(i), 0, x),
  pop: (l, i) => (i === undefined ? l.pop() : l.splice(Number(i), 1)[0]),
  remove: (l, x) => void l.splice(l.findIndex((e) => pyEq(e, x)), 1),
  copy: (l) => [...l],
};

const DICT: Record<string, (d: Record<string, unknown>, ...a: unknown[]) => unknown> = {
  items: (d) => Object.entries(d),
  keys: (d) => Object.keys(d),
  values: (d) => Object.values(d),
  get: (d, k, def = null) => (hasOwn(d, String(k)) && d[String(k)] !== undefined ? d[String(k)] : def),
  copy: (d) => ({ ...d }),
  update: (d, other) => void assignOwn(d, stripKeywords(other)),
  pop: (d, k, def) => {
    const key = String(k);
    if (!hasOwn(d, key)) return def;
    const v = d[key];
    delete d[key];
    return v;
  },
  setdefault: (d, k, def = null) => (hasOwn(d, String(k)) ? d[String(k)] : (setOwn(d, String(k), def), def)),
};

/** nunjucks passes keyword arguments as a trailing object flagged `__keywords`. */
export function stripKeywords(v: unknown): unknown {
  if (v && typeof v === 'object' && '__keywords' in v) {
    const { __keywords: _k, ...rest } = v as Record<string, unknown>;
    return rest;
  }
  return v;
}

/** The Python method `name` of `obj`, bound, or undefined. */
export function pyMethod(obj: unknown, name: string): ((...args: unknown[]) => unknown) | undefined {
  let table: Record<string, Method> | undefined;
  if (typeof obj === 'string') table = STR as Record<string, Method>;
  else if (Array.isArray(obj)) table = LIST as Record<string, Method>;
  else if (obj !== null && typeof obj === 'object') table = DICT as Record<string, Method>;
  const fn = table && hasOwn(table, name) ? table[name] : undefined;
  return fn ? (...args: unknown[]) => fn(obj as never, ...args) : undefined;
}
