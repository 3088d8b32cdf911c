// List and dict filters: set operations keep first-seen order and compare like Python (structurally).
import { isPlainObject, pyEq, pyStr, pyTypeName } from '../py.js';
import { TemplateFailure, Undef } from '../undefined.js';
import { arg, iter, splitArgs, type Args, type Fn } from './args.js';
import { attrGetter } from './attr.js';
import { doRound } from './py-round.js';
import { getOwn, setOwn } from '../../../own-keys.js';

export function unique(xs: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const x of xs) if (!out.some((y) => pyEq(x, y))) out.push(x);
  return out;
}

const has = (xs: unknown[], x: unknown): boolean => xs.some((y) => pyEq(x, y));

/** Python ordering for sort/min/max; strings compare case-insensitively unless asked. */
export function pyCompare(a: unknown, b: unknown, caseSensitive = false): number {
  if (typeof a === 'string' && typeof b === 'string') {
    const x = caseSensitive ? a : a.toLowerCase();
    const y = caseSensitive ? b : b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = pyCompare(a[i], b[i], caseSensitive);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  throw new TemplateFailure(`'<' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

function keyed(a: Args, attrPos: number): (x: unknown) => unknown {
  const attribute = arg<unknown>(a, attrPos, 'attribute', null);
  return attribute === null ? (x) => x : attrGetter(String(attribute));
}

function sortFilter(v: unknown, ...rest: unknown[]): unknown[] {
  const a = splitArgs(rest);
  const reverse = Boolean(arg(a, 0, 'reverse', false));
  const cs = Boolean(arg(a, 1, 'case_sensitive', false));
  const key = keyed(a, 2);
  const out = [...iter(v)].sort((x, y) => pyCompare(key(x), key(y), cs));
  return reverse ? out.reverse() : out;
}

function extreme(sign: 1 | -1) {
  return (v: unknown, ...rest: unknown[]): unknown => {
    const a = splitArgs(rest);
    const cs = Boolean(arg(a, 0, 'case_sensitive', false));
    const key = keyed(a, 1);
    const xs = iter(v);
    if (xs.length === 0) return new Undef('(empty sequence)', 'No aggregated item, sequence was empty.');
    return xs.reduce((best, x) => (sign * pyCompare(key(x), key(best), cs) < 0 ? x : best));
  };
}

export function flatten(xs: unknown[], levels: number | null, skipNulls: boolean): unknown[] {
  const out: unknown[] = [];
  for (const x of xs) {
    if (skipNulls && (x === null || x === 'None' || x === 'null')) continue;
    if (Array.isArray(x) && (levels === null || levels >= 1)) out.push(...flatten(x, levels === null ? null : levels - 1, skipNulls));
    else out.push(x);
  }
  return out;
}

type ListMerge = 'replace' | 'keep' | 'append' | 'prepend' | 'append_rp' | 'prepend_rp';

function mergeLists(a: unknown[], b: unknown[], how: ListMerge): unknown[] {
  switch (how) {
    case 'keep':
      return a;
    case 'append':
      return [...a, ...b];
    case 'prepend':
      return [...b, ...a];
    case 'append_rp':
      return [...a.filter((x) => !has(b, x)), ...b];
    case 'prepend_rp':
      return [...b, ...a.filter((x) => !has(b, x))];
    default:
      return b;
  }
}

function mergeDicts(a: Record<string, unknown>, b: Record<string, unknown>, recursive: boolean, how: ListMerge): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = getOwn(out, k);
    if (recursive && isPlainObject(cur) && isPlainObject(v)) setOwn(out, k, mergeDicts(cur, v, true, how));
    else if (Array.isArray(cur) && Array.isArray(v)) setOwn(out, k, mergeLists(cur, v, how));
    else setOwn(out, k, v);
  }
  return out;
}

function combine(v: unknown, ...rest: unknown[]): Record<string, unknown> {
  const a = splitArgs(rest);
  const recursive = Boolean(a.kw.recursive);
  const how = String(a.kw.list_merge ?? 'replace') as ListMerge;
  const dicts = flatten([v, ...a.pos], null, false);
  return dicts.reduce<Record<string, unknown>>((acc, d) => {
    if (!isPlainObject(d)) throw new TemplateFailure(`combine expects dictionaries, got '${pyTypeName(d)}'`);
    return mergeDicts(acc, d, recursive, how);
  }, {});
}

function dict2items(v: unknown, ...rest: unknown[]): unknown[] {
  if (!isPlainObject(v)) throw new TemplateFailure(`dict2items requires a dictionary, got ${pyTypeName(v)} instead.`);
  const a = splitArgs(rest);
  const kn = String(arg(a, 0, 'key_name', 'key'));
  const vn = String(arg(a, 1, 'value_name', 'value'));
  return Object.entries(v).map(([k, x]) => ({ [kn]: k, [vn]: x }));
}

function items2dict(v: unknown, ...rest: unknown[]): Record<string, unknown> {
  if (!Array.isArray(v)) throw new TemplateFailure(`items2dict requires a list, got ${pyTypeName(v)} instead.`);
  const a = splitArgs(rest);
  const kn = String(arg(a, 0, 'key_name', 'key'));
  const vn = String(arg(a, 1, 'value_name', 'value'));
  return Object.fromEntries(v.map((it) => [pyStr((it as Record<string, unknown>)[kn]), (it as Record<string, unknown>)[vn]]));
}

function zip(v: unknown, ...others: unknown[]): unknown[][] {
  const lists = [iter(v), ...others.map(iter)];
  const n = Math.min(...lists.map((l) => l.length));
  return Array.from({ length: n }, (_x, i) => lists.map((l) => l[i]));
}

function zipLongest(v: unknown, ...rest: unknown[]): unknown[][] {
  const a = splitArgs(rest);
  const fill = a.kw.fillvalue ?? null;
  const lists = [iter(v), ...a.pos.map(iter)];
  const n = Math.max(...lists.map((l) => l.length));
  return Array.from({ length: n }, (_x, i) => lists.map((l) => (i < l.length ? l[i] : fill)));
}

function first(v: unknown): unknown {
  const xs = iter(v);
  return xs.length ? xs[0] : new Undef('(first item)', 'No first item, sequence was empty.');
}

function last(v: unknown): unknown {
  const xs = iter(v);
  return xs.length ? xs[xs.length - 1] : new Undef('(last item)', 'No last item, sequence was empty.');
}

function length(v: unknown): number {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (v && typeof v === 'object') return Object.keys(v).length;
  throw new TemplateFailure(`object of type '${pyTypeName(v)}' has no len()`);
}

export const listFilters: Record<string, Fn> = {
  first,
  last,
  length,
  count: length,
  list: (v: unknown) => [...iter(v)],
  unique: (v: unknown) => unique(iter(v)),
  union: (a: unknown, b: unknown) => unique([...iter(a), ...iter(b)]),
  intersect: (a: unknown, b: unknown) => unique(iter(a).filter((x) => has(iter(b), x))),
  difference: (a: unknown, b: unknown) => unique(iter(a).filter((x) => !has(iter(b), x))),
  symmetric_difference: (a: unknown, b: unknown) =>
    unique([...iter(a).filter((x) => !has(iter(b), x)), ...iter(b).filter((x) => !has(iter(a), x))]),
  sort: sortFilter,
  reverse: (v: unknown) => (typeof v === 'string' ? [...v].reverse().join('') : [...iter(v)].reverse()),
  min: extreme(1),
  max: extreme(-1),
  sum: (v: unknown, ...rest: unknown[]) => {
    const a = splitArgs(rest);
    const key = keyed(a, 0);
    const start = arg<unknown>(a, 1, 'start', 0);
    return iter(v).reduce<unknown>((acc, x) => {
      const y = key(x);
      return Array.isArray(acc) && Array.isArray(y) ? [...acc, ...y] : (acc as number) + (y as number);
    }, start);
  },
  flatten: (v: unknown, ...rest: unknown[]) => {
    const a = splitArgs(rest);
    const levels = arg<unknown>(a, 0, 'levels', null);
    return flatten(iter(v), levels === null ? null : Number(levels), arg<unknown>(a, 1, 'skip_nulls', true) !== false);
  },
  zip,
  zip_longest: zipLongest,
  combine,
  dict2items,
  items2dict,
  type_debug: (v: unknown) => pyTypeName(v),
  // `list | map('extract', hostvars, 'ansible_host')`: container[item][morekey...].
  extract: (item: unknown, container: unknown, morekeys?: unknown) => {
    let out = (container as Record<string, unknown> | undefined)?.[item as string];
    if (out === undefined) throw new TemplateFailure(`extract: ${pyStr(item)} is not in the container`);
    for (const k of morekeys === undefined ? [] : Array.isArray(morekeys) ? morekeys : [morekeys]) out = (out as Record<string, unknown>)?.[k as string];
    return out;
  },
  join: (v: unknown, ...rest: unknown[]) => {
    const a = splitArgs(rest);
    const key = keyed(a, 1);
    return iter(v).map((x) => pyStr(key(x))).join(pyStr(arg(a, 0, 'd', '')));
  },
  abs: (v: unknown) => Math.abs(v as number),
  round: (v: unknown, ...rest: unknown[]) => {
    const a = splitArgs(rest);
    return doRound(v, arg(a, 0, 'precision', 0), arg(a, 1, 'method', 'common'));
  },
};
