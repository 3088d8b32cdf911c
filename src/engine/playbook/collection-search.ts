// `collections:` as ansible-core 2.14 searches it for a short module name (Task.preprocess_data, the plugin
// loader's collection_list): the task's own list, else its block's, else its role's (the role's collection
// and meta/main.yml `collections:` - roles do not inherit the play's), else the play's; each collection
// that has the module wins over ansible.builtin/ansible.legacy, which end the search where they are listed.
import type { TaskLoadContext } from './load-context.js';
import type { Vars } from './types.js';

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : undefined);

/** The context for what a task or block holds: its own `collections:` replaces the inherited list. */
export function withCollections(ctx: TaskLoadContext, t: Vars): TaskLoadContext {
  const own = strings(t.collections);
  return own ? { ...ctx, collections: own } : ctx;
}

/** A role's search list: its own collection (a collection role) first, then meta/main.yml's `collections:`. */
export function roleCollections(collection: string | undefined, meta: Vars): string[] | undefined {
  const list = [...(collection ? [collection] : []), ...(strings(meta.collections) ?? [])];
  return list.length ? [...new Set(list)] : undefined;
}

/** The name a short module name resolves under: `ns.coll.name` for the first listed collection that has it. */
export function searchedModuleName(written: string, ctx: TaskLoadContext): string {
  if (written.includes('.') || !ctx.collections?.length) return written;
  for (const c of ctx.collections) {
    if (c === 'ansible.builtin' || c === 'ansible.legacy') return written;
    if (ctx.resolveModule?.inCollection?.(c, written)) return `${c}.${written}`;
  }
  return written;
}
