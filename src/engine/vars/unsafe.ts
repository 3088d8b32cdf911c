// Text that is never rendered as a template. Two sources, one rule:
// - `!unsafe 'text {{ x }}'` in a playbook, vars file or inventory: the user marks one value literal
//   (Ansible's AnsibleUnsafeText). It is kept as an UnsafeText until a template reads it, which
//   yields its plain text, never rendered.
// - whole variables that hold data, not templates: registered and module results, facts (gathered or
//   set by a module), set_fact values, loop items. Anything a template produced (including what a
//   lookup read) is output, and output is never rendered again. The runner names these variables
//   when it builds a task's view (templatedVars' `isData`), as ansible-core 2.19 renders only
//   strings that are trusted as templates.
// A value's text therefore travels from a host to a module or a printout exactly as it came.

import { YAMLMap, YAMLSeq } from 'yaml';
import { setOwn } from '../../own-keys.js';

const UNSAFE_TAG = '!unsafe';
/** Ansible's own JSON shape for an unsafe string; a copy (structuredClone, spread) keeps it. */
const UNSAFE_KEY = '__ansible_unsafe';

export class UnsafeText {
  readonly [UNSAFE_KEY]: string;

  constructor(text: string) {
    this[UNSAFE_KEY] = text;
  }

  toString(): string {
    return this[UNSAFE_KEY];
  }

  toJSON(): string {
    return this[UNSAFE_KEY];
  }
}

/** The text of an `!unsafe` value (also of a copy that lost its class), else undefined. */
export function unsafeTextOf(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const text = (v as Record<string, unknown>)[UNSAFE_KEY];
  return typeof text === 'string' && Object.keys(v).length === 1 ? text : undefined;
}

/** The plain value of `v` (a template reading an `!unsafe` value gets its text, unrendered). */
export function unwrapUnsafe(v: unknown): unknown {
  return unsafeTextOf(v) ?? v;
}

/** Every string inside `v` marked unsafe (`!unsafe` on a mapping or a list, as Ansible's wrap_var). */
export function markUnsafeDeep(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return new UnsafeText(v);
  if (v === null || typeof v !== 'object' || depth > 100 || unsafeTextOf(v) !== undefined) return v;
  if (Array.isArray(v)) return v.map((x) => markUnsafeDeep(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, markUnsafeDeep(x, depth + 1));
  return out;
}

type ToJson = (arg?: unknown, ctx?: unknown) => unknown;
class UnsafeMap extends YAMLMap {
  static tag = UNSAFE_TAG;
  override toJSON(arg?: unknown, ctx?: unknown): unknown {
    return markUnsafeDeep((YAMLMap.prototype.toJSON as ToJson).call(this, arg, ctx));
  }
}
class UnsafeSeq extends YAMLSeq {
  static tag = UNSAFE_TAG;
  override toJSON(arg?: unknown, ctx?: unknown): unknown[] {
    return markUnsafeDeep((YAMLSeq.prototype.toJSON as ToJson).call(this, arg, ctx)) as unknown[];
  }
}

/** `!unsafe` for the `yaml` library's customTags: on a scalar, a mapping or a list. */
const unsafeTags = [
  { tag: UNSAFE_TAG, resolve: (source: string) => new UnsafeText(source) },
  { tag: UNSAFE_TAG, collection: 'map', nodeClass: UnsafeMap, resolve: (node: YAMLMap) => Object.assign(new UnsafeMap(), node) },
  { tag: UNSAFE_TAG, collection: 'seq', nodeClass: UnsafeSeq, resolve: (node: YAMLSeq) => Object.assign(new UnsafeSeq(), node) },
];

/** Whether a YAML node was tagged `!unsafe` (readers that walk nodes themselves ask this). */
export const isUnsafeNode = (node: { tag?: string } | null | undefined): boolean => node?.tag === UNSAFE_TAG;

/** customTags for the `yaml` library: add !unsafe to a tag list. */
export function withUnsafeTag<T>(tags: T[]): T[] {
  return [...tags, ...(unsafeTags as unknown as T[])];
}
