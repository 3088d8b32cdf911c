// Turn a schema failure into one line a user can act on: which argument, what was expected, what came.
import type { ZodError } from 'zod';

export function formatArgsError(module: string, err: ZodError, given: Record<string, unknown>): string {
  const parts = err.issues.map((i) => {
    const path = i.path.join('.');
    if (i.code === 'unrecognized_keys') return `unsupported argument(s) ${i.keys.map((k) => `'${k}'`).join(', ')}`;
    const value = path ? (given as Record<string, unknown>)[String(i.path[0])] : undefined;
    const got = value === undefined ? 'nothing' : JSON.stringify(value);
    if (i.code === 'invalid_type' && i.received === 'undefined') return `missing required argument '${path}' (expected ${i.expected})`;
    if (path && value === undefined && i.path.length === 1) return `missing required argument '${path}'`;
    if (i.code === 'invalid_enum_value') return `argument '${path}': expected one of ${i.options.join(', ')}, got ${got}`;
    return path ? `argument '${path}': ${i.message}, got ${got}` : i.message;
  });
  return `invalid arguments for module '${module}': ${parts.join('; ')}`;
}
