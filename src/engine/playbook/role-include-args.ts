// The arguments include_role and import_role share (IncludeRole.load, ansible-core 2.14): the *_from
// files (strings, their basename taken as Ansible does) and the options public, allow_duplicates,
// rolespec_validate (booleans; include_role's public defaults to false, import_role's role is public).
import path from 'node:path';
import { BadInputError, type SourceLoc } from '../../errors.js';
import { locOf } from '../yaml-source.js';
import type { RoleFromFiles } from './load-context.js';

const FROM_KEYS = ['tasks', 'vars', 'defaults', 'handlers'] as const;
const TRUE = ['yes', 'true', 'on', 'y', 't', '1'];
const FALSE = ['no', 'false', 'off', 'n', 'f', '0'];

const pyTypeName = (v: unknown) => (Array.isArray(v) ? 'list' : v === null ? 'NoneType' : typeof v === 'object' ? 'dict' : typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'float') : typeof v === 'boolean' ? 'bool' : 'str');

/** tasks_from, vars_from, defaults_from, handlers_from: their basename, as Ansible keeps (a template is rendered per host by include_role). */
export function fromFiles(args: Record<string, unknown>, loc: SourceLoc): RoleFromFiles {
  const out: RoleFromFiles = {};
  for (const k of FROM_KEYS) {
    const v = args[`${k}_from`];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new BadInputError(`Expected a string for ${k}_from but got <class '${pyTypeName(v)}'> instead`, locOf(args, `${k}_from`) ?? loc);
    out[k] = path.basename(v);
  }
  return out;
}

function boolArg(args: Record<string, unknown>, key: string, dflt: boolean, loc: SourceLoc): boolean {
  const v = args[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'boolean') return v;
  const w = String(v).trim().toLowerCase();
  if (TRUE.includes(w)) return true;
  if (FALSE.includes(w)) return false;
  const why = /{{|{%/.test(String(v)) ? 'a template is not supported here; write true or false' : `got ${JSON.stringify(v)}`;
  throw new BadInputError(`'${key}' of include_role/import_role must be a boolean (${why})`, locOf(args, key) ?? loc);
}

export interface IncludeRoleOptions<T = boolean | string> {
  /** A template (include_role only) is rendered per host when the role is included. */
  public: T;
  allowDuplicates: T;
  validate: T;
}

const isTemplate = (v: unknown): v is string => typeof v === 'string' && /{{|{%/.test(v);

/**
 * include_role's public (default false), allow_duplicates and rolespec_validate (default true): a template
 * stays one, rendered per host when the role is included (included_file.py post-validates the copied task).
 */
export function includeRoleOptions(args: Record<string, unknown>, loc: SourceLoc): IncludeRoleOptions {
  const opt = (key: string, dflt: boolean): boolean | string => (isTemplate(args[key]) ? args[key] : boolArg(args, key, dflt, loc));
  return { public: opt('public', false), allowDuplicates: opt('allow_duplicates', true), validate: opt('rolespec_validate', true) };
}

/** import_role's options, fixed at load (its role is public). */
export function importRoleOptions(args: Record<string, unknown>, loc: SourceLoc): IncludeRoleOptions<boolean> {
  return { public: boolArg(args, 'public', true, loc), allowDuplicates: boolArg(args, 'allow_duplicates', true, loc), validate: boolArg(args, 'rolespec_validate', true, loc) };
}

/**
 * An include_role option rendered for one host, made a bool as FieldAttribute(isa='bool') is
 * (module_utils boolean, strict): anything else is Ansible's "could not be converted to an bool".
 */
export function renderedIncludeBool(key: string, value: boolean | string | undefined, render: (template: string) => unknown, loc: SourceLoc): boolean | undefined {
  if (typeof value !== 'string') return value;
  const v = render(value);
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  const w = String(v).trim().toLowerCase();
  if (TRUE.includes(w)) return true;
  if (FALSE.includes(w)) return false;
  throw new BadInputError(`the field '${key}' has an invalid value (${String(v)}), and could not be converted to an bool. The error was: The value '${String(v)}' is not a valid boolean.`, loc);
}
