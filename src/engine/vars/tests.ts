// Jinja tests (`x is defined`, `r is failed`, `v is version('1.2', '>=')`) with Ansible's names.
import { existsSync, statSync } from 'node:fs';
import { isPlainObject, pyEq, pyStr, pyTruthy } from './py.js';
import { arg, splitArgs, type Fn } from './filters/args.js';
import { pyRegex } from './filters/regex.js';
import { firstMatch } from './filters/bounded-regex.js';
import { toBool } from './filters/text.js';
import { TemplateFailure, Undef } from './undefined.js';

/** Tests that answer for an undefined value instead of raising (Jinja's type tests return false). */
export const UNDEF_SAFE_TESTS = new Set(['defined', 'undefined', 'none', 'null', 'string', 'number', 'integer', 'float',
  'mapping', 'sequence', 'iterable', 'boolean', 'true', 'false']);

function contains(haystack: unknown, needle: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.some((x) => pyEq(x, needle));
  if (typeof haystack === 'string') return haystack.includes(pyStr(needle));
  if (haystack && typeof haystack === 'object') return String(needle) in haystack;
  throw new TemplateFailure(`argument of type '${typeof haystack}' is not iterable`);
}

function regexTest(mode: 'match' | 'search' | 'fullmatch') {
  return (v: unknown, pattern: unknown, ...rest: unknown[]): boolean => {
    const a = splitArgs(rest);
    const flags = { ignorecase: arg(a, 0, 'ignorecase', false), multiline: arg(a, 1, 'multiline', false) };
    const type = mode === 'search' ? String(arg(a, 2, 'match_type', 'search')) : mode;
    const src = type === 'fullmatch' ? `(?:${String(pattern)})$` : String(pattern);
    const re = pyRegex(type === 'search' ? src : `^(?:${src})`, flags);
    return firstMatch(re, pyStr(v)) !== null;
  };
}

/** distutils LooseVersion ordering: numbers numerically, letters lexically. */
function versionParts(v: string): (number | string)[] {
  return v.split(/(\d+|[a-z]+|\.)/i).filter((p) => p && p !== '.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

export function compareVersions(a: string, b: string): number {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (i >= x.length) return -1;
    if (i >= y.length) return 1;
    const p = x[i]!;
    const q = y[i]!;
    if (p === q) continue;
    if (typeof p === typeof q) return p < q ? -1 : 1;
    return typeof p === 'number' ? 1 : -1;
  }
  return 0;
}

const VERSION_OPS: Record<string, (c: number) => boolean> = {
  '<': (c) => c < 0, lt: (c) => c < 0, '<=': (c) => c <= 0, le: (c) => c <= 0,
  '>': (c) => c > 0, gt: (c) => c > 0, '>=': (c) => c >= 0, ge: (c) => c >= 0,
  '==': (c) => c === 0, '=': (c) => c === 0, eq: (c) => c === 0,
  '!=': (c) => c !== 0, '<>': (c) => c !== 0, ne: (c) => c !== 0,
};

function version(v: unknown, other: unknown, ...rest: unknown[]): boolean {
  const op = String(arg(splitArgs(rest), 0, 'operator', 'eq'));
  const check = VERSION_OPS[op];
  if (!check) throw new TemplateFailure(`Invalid operator type (${op})`);
  return check(compareVersions(pyStr(v), pyStr(other)));
}

function result(name: string, key: string) {
  return (v: unknown): boolean => {
    if (!isPlainObject(v)) throw new TemplateFailure(`The '${name}' test expects a dictionary`);
    if (key === 'changed' && !('changed' in v) && Array.isArray(v.results)) {
      return v.results.some((r) => isPlainObject(r) && pyTruthy(r.changed ?? false));
    }
    return pyTruthy(v[key] ?? false);
  };
}

const isNum = (v: unknown): boolean => typeof v === 'number' || typeof v === 'boolean';

export const tests: Record<string, Fn> = {
  defined: (v: unknown) => !(v instanceof Undef),
  undefined: (v: unknown) => v instanceof Undef,
  none: (v: unknown) => v === null,
  string: (v: unknown) => typeof v === 'string',
  number: isNum,
  integer: (v: unknown) => typeof v === 'number' && Number.isInteger(v),
  float: (v: unknown) => typeof v === 'number' && !Number.isInteger(v),
  mapping: (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Undef),
  sequence: (v: unknown) => typeof v === 'string' || (v !== null && typeof v === 'object' && !(v instanceof Undef)),
  iterable: (v: unknown) => typeof v === 'string' || (v !== null && typeof v === 'object' && !(v instanceof Undef)),
  boolean: (v: unknown) => typeof v === 'boolean',
  true: (v: unknown) => v === true,
  false: (v: unknown) => v === false,
  truthy: (v: unknown, conv?: unknown) => (pyTruthy(splitArgs([conv]).kw.convert_bool ?? conv) ? toBool(v) : pyTruthy(v)),
  falsy: (v: unknown, conv?: unknown) => !(pyTruthy(splitArgs([conv]).kw.convert_bool ?? conv) ? toBool(v) : pyTruthy(v)),
  equalto: (v: unknown, o: unknown) => pyEq(v, o),
  ne: (v: unknown, o: unknown) => !pyEq(v, o),
  lt: (v: unknown, o: unknown) => (v as number) < (o as number),
  le: (v: unknown, o: unknown) => (v as number) <= (o as number),
  gt: (v: unknown, o: unknown) => (v as number) > (o as number),
  ge: (v: unknown, o: unknown) => (v as number) >= (o as number),
  sameas: (v: unknown, o: unknown) => v === o,
  divisibleby: (v: unknown, n: unknown) => (v as number) % (n as number) === 0,
  even: (v: unknown) => (v as number) % 2 === 0,
  odd: (v: unknown) => Math.abs((v as number) % 2) === 1,
  lower: (v: unknown) => pyStr(v) === pyStr(v).toLowerCase(),
  upper: (v: unknown) => pyStr(v) === pyStr(v).toUpperCase(),
  match: regexTest('match'),
  search: regexTest('search'),
  regex: regexTest('search'),
  in: (v: unknown, seq: unknown) => contains(seq, v),
  contains: (seq: unknown, v: unknown) => contains(seq, v),
  version,
  subset: (a: unknown, b: unknown) => (a as unknown[]).every((x) => contains(b, x)),
  superset: (a: unknown, b: unknown) => (b as unknown[]).every((x) => contains(a, x)),
  failed: result('failed', 'failed'),
  changed: result('changed', 'changed'),
  skipped: result('skipped', 'skipped'),
  unreachable: result('unreachable', 'unreachable'),
  succeeded: (v: unknown) => !result('succeeded', 'failed')(v),
  reachable: (v: unknown) => !result('reachable', 'unreachable')(v),
  exists: (v: unknown) => existsSync(pyStr(v)),
  file: (v: unknown) => existsSync(pyStr(v)) && statSync(pyStr(v)).isFile(),
  directory: (v: unknown) => existsSync(pyStr(v)) && statSync(pyStr(v)).isDirectory(),
  abs: (v: unknown) => pyStr(v).startsWith('/'),
};

/** Jinja/Ansible aliases of the tests above. */
export const TEST_ALIASES: Record<string, string> = {
  null: 'none', eq: 'equalto', '==': 'equalto', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge',
  success: 'succeeded', failure: 'failed', change: 'changed', skip: 'skipped', version_compare: 'version',
  greaterthan: 'gt', lessthan: 'lt', is_dir: 'directory', is_file: 'file', is_abs: 'abs',
};
