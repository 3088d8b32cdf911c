// YAML files are read into plain JS values while remembering where each mapping and key came
// from, so every later error can name file:line:column. YAML 1.1 is used because Ansible users
// write `yes`/`no` booleans.
import { LineCounter, isMap, isSeq, isScalar, isAlias, isPair, type Node, type Document } from 'yaml';
import { parsePyYaml, pyYamlTags } from './yaml-pyyaml.js';
import { BadInputError, type SourceLoc } from '../errors.js';
import { readInputFile } from './input-file.js';
import { ExpansionBudget, yamlDocumentError } from './yaml-limits.js';
import { decryptFileText } from '../vault/keyring.js';
import { withVaultTag } from '../vault/yaml-tag.js';
import { isUnsafeNode, markUnsafeDeep, withUnsafeTag } from './vars/unsafe.js';
import { hasOwn, setOwn } from '../own-keys.js';

const objectLocs = new WeakMap<object, SourceLoc>();
const keyLocs = new WeakMap<object, Map<string, SourceLoc>>();
const itemLocs = new WeakMap<object, SourceLoc[]>();

/** Location of a list's item `i` (a scalar item has no location of its own). */
export function locOfItem(list: unknown[], i: number): SourceLoc | undefined {
  return locOf(list[i]) ?? itemLocs.get(list)?.[i] ?? locOf(list);
}

/** Location of a mapping/sequence (or one of its keys) read by readYaml; undefined for built values. */
export function locOf(value: unknown, key?: string): SourceLoc | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (key !== undefined) return keyLocs.get(value)?.get(key) ?? objectLocs.get(value);
  return objectLocs.get(value);
}

export function setLoc(value: object, loc: SourceLoc): void {
  objectLocs.set(value, loc);
}

/**
 * Files parsed so far, with the text each was parsed from: real content reads the same file many times (kubespray's
 * cluster.yml reads its defaults role's 240 KB in 14 plays: 4 MB parsed for 0.7 MB of files). As Ansible's DataLoader
 * keeps a file cache and hands out deep copies, a file whose text is unchanged is not parsed again, and every reader
 * gets its own copy (with the same source locations), as a fresh parse gave.
 */
const parsedFiles = new Map<string, { text: string; value: unknown }>();

export async function readYamlFile(file: string): Promise<unknown> {
  const text = decryptFileText(readInputFile(file), file);
  let hit = parsedFiles.get(file);
  if (hit?.text !== text) {
    hit = { text, value: parseYaml(text, file) };
    parsedFiles.set(file, hit);
  }
  return copyWithLocs(hit.value);
}

/** A deep copy of what toJs built (plain objects and arrays; leaves such as UnsafeText are immutable, kept). */
function copyWithLocs(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out = v.map(copyWithLocs);
    copyLoc(v, out);
    const items = itemLocs.get(v);
    if (items) itemLocs.set(out, items);
    return out;
  }
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, copyWithLocs(x));
  copyLoc(v, out);
  const keys = keyLocs.get(v);
  if (keys) keyLocs.set(out, keys);
  return out;
}

function copyLoc(from: object, to: object): void {
  const loc = objectLocs.get(from);
  if (loc) objectLocs.set(to, loc);
}

/** PyYAML's scalar resolution (kept under its old name for the inventory reader). */
export const pyBools = pyYamlTags;
type Tag = Parameters<typeof pyYamlTags>[0][number];

export function parseYaml(text: string, file: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parsePyYaml(text, { lineCounter, version: '1.1', prettyErrors: false, uniqueKeys: false, customTags: ((tags: Tag[]) => withUnsafeTag(withVaultTag(pyBools(tags)))) as never });
  const err = yamlDocumentError(doc, text, lineCounter, file);
  if (err) throw err;
  const at = (n: Node | null | undefined): SourceLoc => {
    const off = n?.range?.[0] ?? 0;
    const p = lineCounter.linePos(off);
    return { file, line: p.line, column: p.col };
  };
  const budget = new ExpansionBudget(() => ({ file, line: 1 }));
  return toJs(doc.contents as Node | null, { doc, at, budget }, 0);
}

interface Walk { doc: Document; at: (n: Node | null | undefined) => SourceLoc; budget: ExpansionBudget }

function toJs(node: Node | null, w: Walk, depth: number, aliased = false): unknown {
  if (node === null || node === undefined) return null;
  w.budget.take(depth, aliased, () => (depth > 0 && !isScalar(node) ? w.at(node) : undefined));
  if (isAlias(node)) {
    const target = node.resolve(w.doc) as Node | undefined;
    if (!target) throw new BadInputError(`undefined YAML alias '*${node.source}'; expected an anchor '&${node.source}' defined before it`, w.at(node));
    return toJs(target, w, depth + 1, true);
  }
  if (isScalar(node)) return node.value;
  const { at } = w;
  if (isUnsafeNode(node)) return markUnsafeDeep(toJs(Object.assign(node.clone(), { tag: undefined }) as Node, w, depth));
  if (isSeq(node)) {
    const arr = node.items.map((item) => toJs(item as Node, w, depth + 1, aliased));
    objectLocs.set(arr, at(node));
    itemLocs.set(arr, node.items.map((item) => at(item as Node)));
    return arr;
  }
  if (isMap(node)) {
    const obj: Record<string, unknown> = {};
    const keys = new Map<string, SourceLoc>();
    objectLocs.set(obj, at(node));
    keyLocs.set(obj, keys);
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as Node | null;
      // The yaml package reads a merge key `<<` as Symbol('<<').
      const key = isScalar(keyNode) ? (typeof keyNode.value === 'symbol' ? keyNode.value.description ?? '' : String(keyNode.value)) : String(toJs(keyNode, w, depth + 1, aliased));
      const value = toJs(pair.value as Node | null, w, depth + 1, aliased);
      if (key === '<<') {
        // YAML merge keys: earlier explicit keys win over merged ones.
        for (const src of Array.isArray(value) ? value : [value]) {
          if (src && typeof src === 'object') for (const [k, v] of Object.entries(src)) if (!hasOwn(obj, k)) setOwn(obj, k, v);
        }
        continue;
      }
      setOwn(obj, key, value); // `__proto__: {...}` is a key, as in PyYAML
      keys.set(key, at(keyNode));
    }
    return obj;
  }
  return null;
}
