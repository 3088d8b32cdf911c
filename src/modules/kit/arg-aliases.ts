// The aliases a schema maps before validating (withAliases, withPathAliases), remembered beside the
// schema: the preprocess that maps them is a closure zod cannot show, and the module reference
// (`hostwire doc`) prints each argument's aliases from here, so they cannot drift from the mapping.
import type { ZodTypeAny } from 'zod';

const recorded = new WeakMap<ZodTypeAny, Record<string, readonly string[]>>();

export function recordAliases<T extends ZodTypeAny>(schema: T, aliases: Record<string, readonly string[]>): T {
  recorded.set(schema, aliases);
  return schema;
}

/** The aliases of each argument declared on this schema wrapper (none when it declares none). */
export function aliasesOf(schema: ZodTypeAny): Record<string, readonly string[]> {
  return recorded.get(schema) ?? {};
}
