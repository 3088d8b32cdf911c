// Python semantics that Jinja templates rely on and JavaScript does not share: truthiness of empty
// collections, deep ==, str()/repr() of lists, dicts, booleans and None (what Ansible prints).
import { Undef, UndefinedError } from './undefined.js';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Python bool(): empty list/dict/string, 0 and None are false. Using an undefined variable throws. */
export function pyTruthy(v: unknown): boolean {
  if (v instanceof Undef) throw new UndefinedError(v);
  if (v === null || v === undefined || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isPlainObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** Python ==: structural for lists and dicts. */
export function pyEq(a: unknown, b: unknown): boolean {
  if (a instanceof Undef) throw new UndefinedError(a);
  if (b instanceof Undef) throw new UndefinedError(b);
  if (a === b) return true;
  if (a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEq(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && pyEq(a[k], b[k]));
  }
  return false;
}

function pyFloat(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  return String(n);
}

function quoteStr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

/** Python repr(), used for items inside printed lists and dicts. */
export function pyRepr(v: unknown): string {
  if (typeof v === 'string') return quoteStr(v);
  return pyStr(v);
}

/** Python str(): what `{{ value }}` prints inside text. */
export function pyStr(v: unknown): string {
  if (v instanceof Undef) throw new UndefinedError(v);
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return pyFloat(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (isPlainObject(v)) {
    return `{${Object.entries(v).map(([k, x]) => `${quoteStr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  }
  return String(v);
}

/** Python's json.dumps as Ansible calls it: ", " and ": " separators, ASCII-only unless told. */
export function pyJson(v: unknown, opts: { indent?: number; sortKeys?: boolean; ensureAscii?: boolean } = {}): string {
  const { indent, sortKeys = false, ensureAscii = true } = opts;
  const str = (s: string): string => {
    const j = JSON.stringify(s);
    return ensureAscii ? j.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : j;
  };
  const walk = (x: unknown, depth: number): string => {
    if (x instanceof Undef) throw new UndefinedError(x);
    if (x === null || x === undefined) return 'null';
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    if (typeof x === 'number') return Number.isFinite(x) ? String(x) : Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
    if (typeof x === 'string') return str(x);
    const nl = indent === undefined ? '' : '\n' + ' '.repeat(indent * (depth + 1));
    const end = indent === undefined ? '' : '\n' + ' '.repeat(indent * depth);
    const sep = indent === undefined ? ', ' : ',';
    if (Array.isArray(x)) {
      if (x.length === 0) return '[]';
      return `[${x.map((e) => nl + walk(e, depth + 1)).join(sep)}${end}]`;
    }
    if (typeof x === 'object') {
      let keys = Object.keys(x as object);
      if (keys.length === 0) return '{}';
      if (sortKeys) keys = keys.sort();
      const o = x as Record<string, unknown>;
      return `{${keys.map((k) => `${nl}${str(k)}: ${walk(o[k], depth + 1)}`).join(sep)}${end}}`;
    }
    return str(String(x));
  };
  return walk(v, 0);
}

/** Python's "%s"-style type name used in Jinja error messages. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (isPlainObject(v)) return 'dict';
  return typeof v;
}
