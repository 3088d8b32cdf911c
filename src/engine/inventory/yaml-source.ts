// Reading YAML the way Ansible's loader does (YAML 1.1: yes/no booleans, 0755 octal,
// merge keys, duplicate keys allowed with the last value winning) while keeping
// positions so that errors can point at file:line:column.
import { isAlias, isMap, isScalar, LineCounter, visit, type Document, type Node } from 'yaml';
import { BadInputError, type SourceLoc } from '../../errors.js';
import { withVaultTag } from '../../vault/yaml-tag.js';
import { withUnsafeTag } from '../vars/unsafe.js';
import { yamlDocumentError } from '../yaml-limits.js';
import { pyBools } from '../yaml-source.js';
import { parsePyYaml } from '../yaml-pyyaml.js';

export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export interface YamlEntry {
  key: unknown;
  keyNode: Node | null;
  value: Node | null;
}

export function readYaml(text: string, file: string): YamlSource {
  const lines = new LineCounter();
  // pyBools: PyYAML's booleans (yes/no/on/off/true/false), not YAML 1.1's y/n.
  const doc = parsePyYaml(text, { version: '1.1', uniqueKeys: false, lineCounter: lines, prettyErrors: false, customTags: ((tags: never[]) => withUnsafeTag(withVaultTag(pyBools(tags)))) as never });
  const err = yamlDocumentError(doc, text, lines, file);
  if (err) throw err;
  const src = { file, doc, lines };
  // An alias with no anchor would read as null: refuse it where it is written.
  visit(doc, {
    Alias(_, n) {
      if (!n.resolve(doc)) throw new BadInputError(`undefined YAML alias '*${n.source}'; expected an anchor '&${n.source}' defined before it`, locOf(src, n));
    },
  });
  return src;
}

export function locOf(src: YamlSource, node: Node | null | undefined): SourceLoc {
  const offset = node?.range?.[0];
  if (offset === undefined) return { file: src.file };
  const pos = src.lines.linePos(offset);
  return { file: src.file, line: pos.line, column: pos.col };
}

/** Follow aliases so `*anchor` behaves like the node it names. */
export function resolve(src: YamlSource, node: Node | null | undefined): Node | null {
  let n = node ?? null;
  for (let i = 0; n && isAlias(n) && i < 100; i++) {
    const target = n.resolve(src.doc) as Node | undefined;
    if (!target) throw new BadInputError(`undefined YAML alias '*${n.source}'; expected an anchor '&${n.source}' defined before it`, locOf(src, n));
    n = target;
  }
  return n;
}

export function isNullNode(src: YamlSource, node: Node | null | undefined): boolean {
  const n = resolve(src, node);
  return n === null || (isScalar(n) && n.value === null);
}

/** A mapping's entries with duplicate keys collapsed like a Python dict: first position, last value. */
export function entries(src: YamlSource, node: Node | null): YamlEntry[] {
  const n = resolve(src, node);
  if (!n || !isMap(n)) return [];
  const out = new Map<unknown, YamlEntry>();
  for (const pair of n.items) {
    const keyNode = resolve(src, pair.key as Node | null);
    const key = keyNode && isScalar(keyNode) ? keyNode.value : keyNode ? keyNode.toJS(src.doc) : null;
    // With YAML 1.1 merge enabled the library gives the `<<` key a symbol value.
    if ((key === '<<' || typeof key === 'symbol') && keyNode && isScalar(keyNode)) {
      // Merge key: bring in the entries of the referenced mapping(s), without overriding.
      const merged = resolve(src, pair.value as Node | null);
      const sources = merged && 'items' in merged && !isMap(merged) ? (merged.items as Node[]) : [merged];
      for (const s of sources) for (const e of entries(src, s)) if (!out.has(e.key)) out.set(e.key, e);
      continue;
    }
    // Map.set keeps the first position and takes the last value, as a Python dict does.
    const prev = out.get(key);
    out.set(key, { key, keyNode: prev?.keyNode ?? keyNode, value: (pair.value as Node | null) ?? null });
  }
  return [...out.values()];
}

export function toJs(src: YamlSource, node: Node | null): unknown {
  const n = resolve(src, node);
  if (!n) return null;
  try {
    return n.toJS(src.doc, { maxAliasCount: 1000 });
  } catch (err) {
    // The library refuses an alias bomb (ReferenceError) and overflows on extreme nesting (RangeError).
    if (err instanceof ReferenceError && /excessive alias/i.test(err.message)) {
      throw new BadInputError(`YAML aliases expand too much (an alias bomb?); expected each anchor to be reused a reasonable number of times`, locOf(src, n), err);
    }
    if (err instanceof ReferenceError) throw new BadInputError(`YAML alias error: ${err.message}`, locOf(src, n), err);
    if (err instanceof RangeError) throw new BadInputError('YAML nesting too deep; expected at most 200 levels of mappings and lists', locOf(src, n), err);
    throw err;
  }
}

export function typeName(src: YamlSource, node: Node | null): string {
  const v = toJs(src, node);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'dict';
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'float') : typeof v;
}
