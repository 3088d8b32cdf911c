// Typed reading of play/task keyword values at load time: a value of the wrong type is refused with
// the keyword's file:line, as Ansible's FieldAttribute validation refuses it (never coerced silently).
import { BadInputError, type SourceLoc } from '../../errors.js';
import { locOf } from '../yaml-source.js';
import { assignOwn } from '../../own-keys.js';

// Ansible's module_utils.parsing.convert_bool: BOOLEANS_TRUE / BOOLEANS_FALSE (strings case-insensitive).
const TRUE = new Set(['y', 'yes', 'on', '1', 'true', 't']);
const FALSE = new Set(['n', 'no', 'off', '0', 'false', 'f']);

/** Where `obj[key]` was written (the key's position), else the object's, else the file. */
export const keyLoc = (obj: object, key: string, fallback: SourceLoc): SourceLoc => locOf(obj, key) ?? locOf(obj) ?? fallback;

const isTemplate = (v: unknown) => typeof v === 'string' && /{{|{%/.test(v);

/** A boolean keyword; a template is kept for run time (undefined here means "not set"). */
export function boolKeyword(obj: Record<string, unknown>, key: string, fallback: SourceLoc): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string' && TRUE.has(v.toLowerCase())) return true;
  if (typeof v === 'string' && FALSE.has(v.toLowerCase())) return false;
  if (isTemplate(v)) return Boolean(v);
  throw new BadInputError(`'${key}' must be a boolean (true/false, yes/no), got ${JSON.stringify(v)}`, keyLoc(obj, key, fallback));
}

/** A boolean keyword that may be a template: the template is kept as written, rendered per host at run time. */
export function flagKeyword(obj: Record<string, unknown>, key: string, fallback: SourceLoc): boolean | string | undefined {
  const v = obj[key];
  return isTemplate(v) ? (v as string) : boolKeyword(obj, key, fallback);
}

/**
 * vars: a mapping, or a list of mappings merged in order (later keys win), as ansible-core 2.14's
 * FieldAttributeBase._load_vars; anything else is its error. `owner`: play, task or block.
 */
export function varsKeyword(obj: Record<string, unknown>, owner: string, fallback: SourceLoc): Record<string, unknown> | undefined {
  const v = obj.vars;
  if (!Array.isArray(v)) return mapKeyword(obj, 'vars', fallback);
  if (v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) return assignOwn({}, ...v);
  throw new BadInputError(`Vars in a ${owner} must be specified as a dictionary, or a list of dictionaries (got a list holding ${describe(v.find((x) => x === null || typeof x !== 'object' || Array.isArray(x)))})`, keyLoc(obj, 'vars', fallback));
}

/** A mapping keyword (vars, args, loop_control); null/absent is empty. */
export function mapKeyword(obj: Record<string, unknown>, key: string, fallback: SourceLoc): Record<string, unknown> | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  throw new BadInputError(`'${key}' must be a mapping, got ${describe(v)}`, keyLoc(obj, key, fallback));
}

/** A list keyword (roles, vars_files, serial ...); a single scalar counts as a one-item list when `single`. */
export function listKeyword(obj: Record<string, unknown>, key: string, fallback: SourceLoc, single = false): unknown[] {
  const v = obj[key];
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  if (single && (typeof v !== 'object')) return [v];
  throw new BadInputError(`'${key}' must be a list, got ${describe(v)}`, keyLoc(obj, key, fallback));
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}

// Names Ansible defines itself: registering over one would shadow it for the rest of the play.
const RESERVED = new Set([
  'hostvars', 'groups', 'group_names', 'inventory_hostname', 'inventory_hostname_short', 'inventory_dir',
  'inventory_file', 'playbook_dir', 'play_hosts', 'ansible_play_hosts', 'ansible_play_batch', 'ansible_play_hosts_all', 'omit',
  'role_path', 'role_name', 'ansible_facts', 'vars', 'environment', 'item',
]);

/** `register:` takes a Python identifier that is not one of Ansible's own variables. */
export function registerKeyword(obj: Record<string, unknown>, fallback: SourceLoc): string | undefined {
  const v = obj.register;
  if (v === undefined || v === null) return undefined;
  const loc = keyLoc(obj, 'register', fallback);
  if (typeof v !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) throw new BadInputError(`invalid variable name in 'register' specified: ${JSON.stringify(v)}; expected a name such as result_1`, loc);
  if (RESERVED.has(v)) throw new BadInputError(`'register: ${v}' would overwrite Ansible's own variable '${v}'; expected a name of your own`, loc);
  return v;
}

/** A whole number of seconds (async, poll); a template is kept for the run. */
export function secondsKeyword(obj: Record<string, unknown>, key: string, fallback: SourceLoc): number | string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (isTemplate(v)) return v as string;
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n;
  throw new BadInputError(`'${key}' must be a whole number of seconds, got ${JSON.stringify(v)}`, keyLoc(obj, key, fallback));
}

/** A string keyword (remote_user, become_user...): a scalar, never a list or mapping. */
export function stringKeyword(obj: Record<string, unknown>, key: string, fallback: SourceLoc): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  throw new BadInputError(`'${key}' must be a string, got ${describe(v)}`, keyLoc(obj, key, fallback));
}
