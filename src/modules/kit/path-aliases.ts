// Ansible's aliases of a module's `path` (file: dest, name; lineinfile: dest, destfile, name;
// ini_file: dest), mapped before validation so every later step sees `path`. Ansible lets an alias
// silently win over `path` (with a warning); two different values are refused here instead.
import { z, type ZodTypeAny } from 'zod';
import { recordAliases } from './arg-aliases.js';

export function withPathAliases<T extends ZodTypeAny>(schema: T, aliases: string[]) {
  return recordAliases(z.preprocess((raw, ctx) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const args = { ...(raw as Record<string, unknown>) };
    for (const alias of aliases) {
      if (args[alias] === undefined) continue;
      if (args.path !== undefined && args.path !== args[alias]) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [alias], message: `'${alias}' is an alias of 'path' and both are set to different values; expected one of them` });
        return z.NEVER;
      }
      args.path = args[alias];
      delete args[alias];
    }
    return args;
  }, schema), { path: aliases });
}
