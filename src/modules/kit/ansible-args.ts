// Argument types as Ansible's AnsibleModule reads them: `type: bool` takes yes/no/on/off/1/0/true/false
// (as key=value arguments arrive as text), and aliases map to the argument's own name before validation.
import { z, type ZodTypeAny } from 'zod';
import { recordAliases } from './arg-aliases.js';

const TRUE = new Set(['y', 'yes', 'on', '1', 'true', 't']);
const FALSE = new Set(['n', 'no', 'off', '0', 'false', 'f']);

/** convert_bool.boolean(strict=True) as a value: true/false, or undefined for what it rejects. */
export function ansibleBooleanValue(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : undefined;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  return TRUE.has(s) ? true : FALSE.has(s) ? false : undefined;
}

/** Ansible's `type: bool` (module_utils.parsing.convert_bool.boolean). */
export const ansibleBool = z.preprocess((v) => {
  if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  return TRUE.has(s) ? true : FALSE.has(s) ? false : v;
}, z.boolean({ invalid_type_error: 'expected a boolean (true/false, yes/no, on/off, 1/0)' }));

/** Ansible's `type: int`: a number, or text that is one (key=value arguments). */
export const ansibleInt = z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v), z.number().int());

/**
 * Maps each alias to its argument (`{ path: ['dest', 'name'] }`) before `schema` validates. Ansible
 * lets an alias silently win; two different values for one argument are refused here, naming both.
 */
export function withAliases<T extends ZodTypeAny>(schema: T, aliases: Record<string, readonly string[]>) {
  return recordAliases(z.preprocess((raw, ctx) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const args = { ...(raw as Record<string, unknown>) };
    for (const [name, names] of Object.entries(aliases)) {
      for (const alias of names) {
        if (args[alias] === undefined) continue;
        if (args[name] !== undefined && args[name] !== args[alias]) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [alias], message: `'${alias}' is an alias of '${name}' and both are set to different values; expected one of them` });
          return z.NEVER;
        }
        args[name] = args[alias];
        delete args[alias];
      }
    }
    return args;
  }, schema), aliases);
}
