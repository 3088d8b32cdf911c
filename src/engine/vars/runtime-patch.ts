// Jinja/Python semantics patched into nunjucks' runtime, used by the code its compiler emits:
// - variable lookup reads our vars object (never copied, so lazy vars stay lazy) and yields Undef, not
//   `undefined`, for missing names and attributes, remembering the dotted path for the error message;
// - Python methods on str/list/dict, negative indexes and slices;
// - printing uses Python's str() (True, None, ['a', 1]); `+` joins lists; `==` compares structurally.
// nunjucks is used only by this module in hostwire, so patching its shared runtime is acceptable.
import { nj } from './nj.js';
import './syntax-patch.js'; // parser patches, before jinja-compat wraps parseAggregate
import { isPlainObject, pyEq, pyStr, pyTruthy, pyTypeName } from './py.js';
import { pyMethod } from './py-methods.js';
import { TemplateFailure, Undef, UndefinedError } from './undefined.js';
import { unwrapUnsafe } from './unsafe.js';
import { noteLeafRead } from './taint.js';
import { pyPercentFormat } from './py-format.js';
import { hasOwn } from '../../own-keys.js';

/** Key in the nunjucks context that holds the caller's vars object. */
export const VARS_KEY = '__hw_vars';

// nunjucks' jinja-compat brings slice syntax (x[1:]); it also replaces runtime lookups, so it must be
// installed before our own runtime functions below.
nj.installJinjaCompat();
const rt = nj.runtime;
// A name Object.prototype has (constructor, __proto__, toString) is a var or key only when one of the
// object's own layers (vars are chained with Object.create) holds it, as in a Python dict.
function hasKey(o: object, k: string): boolean {
  if (!(k in o)) return false;
  if (!(k in Object.prototype)) return true;
  for (let p: object | null = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) if (hasOwn(p, k)) return true;
  return false;
}

interface Ctx {
  ctx: Record<string, unknown>;
  env: { globals: Record<string, unknown> };
}
interface Frame {
  lookup(name: string): unknown;
}

function lookupName(context: Ctx, frame: Frame, name: string): unknown {
  const local = frame.lookup(name);
  noteLeafRead(local);
  if (local !== undefined) return local;
  const vars = context.ctx[VARS_KEY] as Record<string, unknown> | undefined;
  if (vars && hasKey(vars, name)) {
    const v = vars[name];
    noteLeafRead(v);
    if (v !== undefined) return v;
  }
  if (hasOwn(context.ctx, name) && context.ctx[name] !== undefined) return context.ctx[name];
  if (hasKey(context.env.globals, name)) return context.env.globals[name];
  return new Undef(name);
}

export function memberLookup(obj: unknown, key: unknown, base = '(expression)'): unknown {
  const v = lookupMember(obj, key, base);
  noteLeafRead(v);
  return v;
}

function lookupMember(obj: unknown, key: unknown, base: string): unknown {
  const path = typeof key === 'number' ? `${base}[${key}]` : `${base}.${String(key)}`;
  if (obj instanceof Undef) return obj.child(path);
  if (key instanceof Undef) throw new UndefinedError(key);
  if (obj === null || obj === undefined) return new Undef(path, `'None' has no attribute '${String(key)}'`);
  if ((Array.isArray(obj) || typeof obj === 'string') && typeof key === 'number') {
    const i = key < 0 ? obj.length + key : key;
    if (Number.isInteger(i) && i >= 0 && i < obj.length) return unwrapUnsafe(obj[i]);
    return new Undef(path, `${pyTypeName(obj)} object has no element ${key}`);
  }
  const k = String(key);
  if (typeof obj === 'object' && !Array.isArray(obj) && (hasOwn(obj, k) || (!isPlainObject(obj) && hasKey(obj, k)))) {
    const v = (obj as Record<string, unknown>)[k];
    if (typeof v === 'function') return (...args: unknown[]) => (v as (...a: unknown[]) => unknown).apply(obj, args);
    // hostvars hands out raw inventory values: an `!unsafe` one reads as its text, unrendered.
    if (v !== undefined) return unwrapUnsafe(v);
  }
  const method = pyMethod(obj, k);
  if (method) return method;
  return new Undef(path, `'${pyTypeName(obj)} object' has no attribute '${k}'`);
}

function slice(obj: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  if (obj instanceof Undef) throw new UndefinedError(obj);
  if (!Array.isArray(obj) && typeof obj !== 'string') throw new TemplateFailure(`cannot slice a ${pyTypeName(obj)}`);
  const len = obj.length;
  const st = step === null || step === undefined ? 1 : Number(step);
  const norm = (v: unknown, dflt: number): number => {
    if (v === null || v === undefined) return dflt;
    const n = Number(v);
    return n < 0 ? Math.max(len + n, st < 0 ? -1 : 0) : Math.min(n, st < 0 ? len - 1 : len);
  };
  const a = norm(start, st > 0 ? 0 : len - 1);
  const b = norm(stop, st > 0 ? len : -1);
  const out: unknown[] = [];
  for (let i = a; st > 0 ? i < b : i > b; i += st) out.push(obj[i]);
  return typeof obj === 'string' ? out.join('') : out;
}

function inOperator(needle: unknown, haystack: unknown): boolean {
  if (needle instanceof Undef) throw new UndefinedError(needle);
  if (haystack instanceof Undef) throw new UndefinedError(haystack);
  if (Array.isArray(haystack)) return haystack.some((x) => pyEq(x, needle));
  if (typeof haystack === 'string') return haystack.includes(pyStr(needle));
  if (haystack !== null && typeof haystack === 'object') return hasKey(haystack, String(needle));
  throw new TemplateFailure(`argument of type '${pyTypeName(haystack)}' is not iterable`);
}

function compare(op: string, a: unknown, b: unknown): boolean {
  if (a instanceof Undef) throw new UndefinedError(a);
  if (b instanceof Undef) throw new UndefinedError(b);
  switch (op) {
    case '==':
    case '===':
      return pyEq(a, b);
    case '!=':
    case '!==':
      return !pyEq(a, b);
    case '<':
      return (a as number) < (b as number);
    case '>':
      return (a as number) > (b as number);
    case '<=':
      return (a as number) <= (b as number);
    case '>=':
      return (a as number) >= (b as number);
    default:
      throw new TemplateFailure(`unknown comparison ${op}`);
  }
}

function add(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  return (a as number) + (b as number);
}

function mul(a: unknown, b: unknown): unknown {
  if (typeof a === 'string' && typeof b === 'number') return a.repeat(Math.max(0, b));
  if (Array.isArray(a) && typeof b === 'number') return Array.from({ length: Math.max(0, b) }, () => a).flat();
  return (a as number) * (b as number);
}

/** Python's `/`, `//` and `%`: a zero divisor is ZeroDivisionError (never inf or NaN); `%` takes the divisor's sign. */
function divide(op: '/' | '//' | '%') {
  return (a: unknown, b: unknown): number | string => {
    if (a instanceof Undef) throw new UndefinedError(a);
    if (b instanceof Undef) throw new UndefinedError(b);
    // str % args: Python's printf-style formatting ('%0.1f' % x).
    if (op === '%' && typeof a === 'string') return pyPercentFormat(a, b);
    const x = typeof a === 'boolean' ? Number(a) : a;
    const y = typeof b === 'boolean' ? Number(b) : b;
    if (typeof x !== 'number' || typeof y !== 'number') throw new TemplateFailure(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
    if (y === 0) throw new TemplateFailure(op === '/' ? 'division by zero' : op === '//' ? 'integer division or modulo by zero' : 'integer modulo by zero');
    if (op === '/') return x / y;
    if (op === '//') return Math.floor(x / y);
    return x - y * Math.floor(x / y);
  };
}

const origFromIterator = rt.fromIterator as (v: unknown) => unknown;

Object.assign(rt, {
  contextOrFrameLookup: lookupName,
  memberLookup,
  hwSlice: slice,
  inOperator,
  hwCmp: compare,
  hwAdd: add,
  hwMul: mul,
  hwDiv: divide('/'),
  hwFloorDiv: divide('//'),
  hwMod: divide('%'),
  hwConcat: (a: unknown, b: unknown) => pyStr(a) + pyStr(b),
  hwTruthy: pyTruthy,
  hwAnd: (a: unknown, b: () => unknown) => (pyTruthy(a) ? b() : a),
  hwOr: (a: unknown, b: () => unknown) => (pyTruthy(a) ? a : b()),
  ensureDefined: (v: unknown) => {
    if (v instanceof Undef) throw new UndefinedError(v);
    return v;
  },
  // Ansible's finalize prints None as an empty string (inside lists it is still 'None').
  suppressValue: (v: unknown) => (v === undefined || v === null ? '' : pyStr(v)),
  fromIterator: (v: unknown) => {
    if (v instanceof Undef) throw new UndefinedError(v);
    return origFromIterator(v);
  },
  hwLoopFilter: (v: unknown, keep: (x: unknown) => boolean) => {
    if (v instanceof Undef) throw new UndefinedError(v);
    const items = isPlainObject(v) ? Object.keys(v) : Array.isArray(v) ? v : [...(v as Iterable<unknown>)];
    return items.filter(keep);
  },
  /** Single-name for loops: a dict iterates its keys, as in Jinja. */
  hwIter: (v: unknown) => {
    if (v instanceof Undef) throw new UndefinedError(v);
    return isPlainObject(v) ? Object.keys(v) : v;
  },
});
