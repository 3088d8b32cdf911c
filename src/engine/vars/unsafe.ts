// Text that is never rendered as a template. Two sources, one rule:
// - `!unsafe 'text {{ x }}'` in a playbook, vars file or inventory: the user marks one value literal
//   (Ansible's AnsibleUnsafeText). It is kept as an UnsafeText until a template reads it, which
//   yields its plain text, never rendered.
// - whole variables that hold data, not templates: registered and module results, facts (gathered or
//   set by a module), set_fact values, loop items. Anything a template produced (including what a
//   lookup read) is output, and output is never rendered again. The runner names these variables
//   when it builds a task's view (see templatedVars' `untrusted`), as ansible-core 2.19 renders only
//   strings that are trusted as templates.
// A value's text therefore travels from a host to a module or a printout exactly as it came.

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

/** `!unsafe` for the `yaml` library's customTags (scalars, as Ansible documents it). */
export const unsafeTag = {
  tag: UNSAFE_TAG,
  resolve(source: string): UnsafeText {
    return new UnsafeText(source);
  },
};

/** customTags for the `yaml` library: add !unsafe to a tag list. */
export function withUnsafeTag<T>(tags: T[]): T[] {
  return [...tags, unsafeTag as unknown as T];
}
