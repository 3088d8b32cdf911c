// The list-shaping lookup plugins behind Ansible's with_* loops, as ansible-core 2.14 defines them
// (lib/ansible/plugins/lookup/{list,nested,together,indexed_items,random_choice,subelements}.py and
// community.general's flattened/cartesian): LookupBase._flatten flattens one level, _combine builds
// the cross product, listify_lookup_plugin_terms turns a string or scalar term into a list of one.
import { randomInt } from 'node:crypto';
import { isPlainObject, pyRepr, pyTruthy } from './py.js';
import { TemplateFailure } from './undefined.js';

type Kw = Record<string, unknown>;

/** LookupBase._flatten: one level. */
export function flattenOnce(terms: unknown[]): unknown[] {
  return terms.flatMap((t) => (Array.isArray(t) ? t : [t]));
}

/** listify_lookup_plugin_terms on an already templated term: a string or scalar becomes a list of one; a dict iterates its keys. */
function listify(term: unknown): unknown[] {
  if (Array.isArray(term)) return term;
  if (isPlainObject(term)) return Object.keys(term);
  return [term];
}

function nested(terms: unknown[], what: string): unknown[][] {
  if (terms.length === 0) throw new TemplateFailure(`with_${what} requires at least one element in the nested list`);
  const lists = terms.map(listify);
  let result: unknown[] = lists[0]!;
  for (const next of lists.slice(1)) result = result.flatMap((x) => next.map((y) => flattenOnce([x, y])));
  return result.map((x) => flattenOnce(Array.isArray(x) ? x : [x]));
}

function cartesian(terms: unknown[]): unknown[][] {
  if (terms.length === 0) throw new TemplateFailure('with_cartesian requires at least one element in each list');
  let out: unknown[][] = [[]];
  for (const list of terms.map(listify)) out = out.flatMap((prefix) => list.map((y) => [...prefix, y]));
  return out.map(flattenOnce);
}

function together(terms: unknown[]): unknown[][] {
  if (terms.length === 0) throw new TemplateFailure('with_together requires at least one element in each list');
  const lists = terms.map(listify);
  const n = Math.max(...lists.map((l) => l.length));
  return Array.from({ length: n }, (_, i) => flattenOnce(lists.map((l) => (i < l.length ? l[i] : null))));
}

/** community.general.flattened: every level; the strings 'None'/'null' end the list (undefined items). */
function flattenAll(terms: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let term of terms) {
    while (Array.isArray(term) && term.length === 1) term = term[0];
    if (term === 'None' || term === 'null') break;
    if (Array.isArray(term)) out.push(...flattenAll(term));
    else out.push(term);
  }
  return out;
}

const SUBELEMENT_FLAGS = ['skip_missing'];

/** subelements: [list or dict of dicts, 'key.sub', {skip_missing}] -> [item without the key, element] pairs. */
function subelements(terms: unknown[]): unknown[][] {
  const bad = (msg = ''): never => {
    throw new TemplateFailure(`subelements lookup expects a list of two or three items, ${msg}`);
  };
  if (terms.length < 2 || terms.length > 3) bad();
  const [source, path, flags = {}] = terms;
  if (!(Array.isArray(source) || isPlainObject(source)) || typeof path !== 'string') bad('first a dict or a list, second a string pointing to the subkey');
  if (!isPlainObject(flags) || Object.keys(flags).some((k) => !SUBELEMENT_FLAGS.includes(k))) bad(`the optional third item must be a dict with flags ${pyRepr(SUBELEMENT_FLAGS)}`);
  if (isPlainObject(source) && source.skipped !== undefined && source.skipped !== false) return [];
  const keys = (path as string).split('.');
  const skipMissing = pyTruthy((flags as Kw).skip_missing ?? false);
  const out: unknown[][] = [];
  for (const item of Array.isArray(source) ? source : Object.values(source as Kw)) {
    if (!isPlainObject(item)) throw new TemplateFailure(`subelements lookup expects a dictionary, got '${pyRepr(item)}'`);
    if (item.skipped !== undefined && item.skipped !== false) continue;
    // Ansible pops the list out of the item it yields: item.0 lacks the subkey (a copy here, not the caller's data).
    const copy = structuredClone(item) as Kw;
    let node: Kw = copy;
    let list: unknown[] = [];
    for (const [i, key] of keys.entries()) {
      const last = i === keys.length - 1;
      if (!(key in node)) {
        if (skipMissing) continue;
        throw new TemplateFailure(`could not find '${key}' key in iterated item '${pyRepr(node)}'`);
      }
      const v = node[key];
      if (!last) {
        if (isPlainObject(v)) node = v;
        else if (!skipMissing) throw new TemplateFailure(`the key ${key} should point to a dictionary, got '${pyRepr(v)}'`);
      } else {
        if (!Array.isArray(v)) throw new TemplateFailure(`the key ${key} should point to a list, got '${pyRepr(v)}'`);
        list = v;
        delete node[key];
      }
    }
    for (const element of list) out.push([copy, element]);
  }
  return out;
}

export const LIST_LOOKUPS: Record<string, (terms: unknown[], kw: Kw) => unknown[]> = {
  list: (terms) => terms,
  nested: (terms) => nested(terms, 'nested'),
  cartesian,
  together,
  flattened: flattenAll,
  indexed_items: (terms) => flattenOnce(terms).map((item, i) => [i, item]),
  random_choice: (terms) => (terms.length ? [terms[randomInt(terms.length)]] : terms),
  subelements,
};
