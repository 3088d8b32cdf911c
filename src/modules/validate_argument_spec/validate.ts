// validate_argument_spec (ansible.builtin, 2.14): checks values against an argument spec, as Ansible
// inserts it before a role's tasks when the role has meta/argument_specs.yml (rolespec_validate).
// Values come from the task's variables under each option's name, then provided_arguments (the role's
// params) on top; the checks and messages are ArgumentSpecValidator's (required, type, elements,
// choices, nested options, unsupported parameters).
import { z } from 'zod';
import type { Module } from '../types.js';
import { convertTo, pyType } from './spec-types.js';
import { validateArgumentSpecDoc } from './doc.js';
import { assignOwn, setOwn } from '../../own-keys.js';

const args = z.object({
  argument_spec: z.record(z.unknown()),
  provided_arguments: z.record(z.unknown()).default({}),
  validate_args_context: z.record(z.unknown()).optional(),
}).strict();
type Args = z.infer<typeof args>;
type Spec = Record<string, unknown>;

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const specOf = (s: unknown): Spec => (isDict(s) ? s : {});

interface Found {
  errors: string[];
  /** Names given that the spec has not, with the options around them (cfg.y). */
  unsupported: { name: string; supported: string[] }[];
}

/** ArgumentSpecValidator's errors for `params` against `spec`, in its order: required, types, choices, sub-options, unsupported. */
export function validateAgainstSpec(spec: Spec, params: Record<string, unknown>): string[] {
  const found: Found = { errors: [], unsupported: [] };
  checkLevel(spec, { ...params }, [], found);
  if (found.unsupported.length) {
    const names = found.unsupported.map((u) => u.name).sort();
    // Ansible names the supported parameters of the level it met last; the top level when it has one.
    const level = found.unsupported.find((u) => !u.name.includes('.')) ?? found.unsupported[found.unsupported.length - 1]!;
    found.errors.push(`${names.join(', ')}. Supported parameters include: ${level.supported.join(', ')}.`);
  }
  return found.errors;
}

function aliasesOf(o: Spec): unknown[] {
  return Array.isArray(o.aliases) ? o.aliases : [];
}

function checkLevel(specIn: Spec, paramsIn: Record<string, unknown>, context: string[], found: Found): void {
  // Null-prototype copies: a parameter or option named `constructor` or `__proto__` is looked up as a key.
  const spec = assignOwn(Object.create(null) as Spec, specIn);
  const params = assignOwn(Object.create(null) as Record<string, unknown>, paramsIn);
  const where = context.length ? ` found in ${context.join(' -> ')}` : '';
  const supported = Object.keys(spec).sort();
  for (const k of Object.keys(params)) {
    if (!(k in spec) && !Object.values(spec).some((o) => aliasesOf(specOf(o)).includes(k))) found.unsupported.push({ name: [...context, k].join('.'), supported });
  }
  const missing = Object.entries(spec).filter(([k, o]) => specOf(o).required === true && (params[k] === undefined || params[k] === null)).map(([k]) => k).sort();
  if (missing.length) found.errors.push(`missing required arguments: ${missing.join(', ')}${where}`);
  const inContext = context.length ? ` found in '${context.join(' -> ')}'.` : '';
  for (const [name, raw] of Object.entries(spec)) {
    const o = specOf(raw);
    const v = params[name];
    if (v === undefined || v === null) continue;
    try {
      setOwn(params, name, convertTo(o.type as string | undefined, v));
    } catch (err) {
      found.errors.push(`argument '${name}' is of type ${pyType(v)}${inContext} and we were unable to convert to ${String(o.type ?? 'str')}: ${(err as Error).message}`);
      continue;
    }
    const list = params[name];
    if (o.elements === undefined || !Array.isArray(list)) continue;
    setOwn(params, name, list.map((e) => {
      try {
        return convertTo(o.elements as string, e);
      } catch (err) {
        found.errors.push(`Elements value for option '${name}'${context.length ? ` found in '${context.join(' -> ')}'` : ''} is of type ${pyType(e)} and we were unable to convert to ${String(o.elements)}: ${(err as Error).message}`);
        return e;
      }
    }));
  }
  for (const [name, raw] of Object.entries(spec)) if (params[name] !== undefined) found.errors.push(...choiceErrors(name, specOf(raw), params[name], where));
  for (const [name, raw] of Object.entries(spec)) {
    const o = specOf(raw);
    if (!isDict(o.options) || params[name] === undefined || params[name] === null) continue;
    const value = params[name];
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (!isDict(item)) {
        found.errors.push(`value of '${name}' must be of type dict or list of dicts`);
        continue;
      }
      checkLevel(o.options as Spec, { ...item }, [...context, name], found);
    }
  }
}

function choiceErrors(name: string, o: Spec, value: unknown, where: string): string[] {
  if (!Array.isArray(o.choices)) return [];
  const choices = o.choices as unknown[];
  const show = choices.map(String).join(', ');
  if (Array.isArray(value)) {
    const diff = value.filter((x) => !choices.includes(x));
    return diff.length ? [`value of ${name} must be one or more of: ${show}. Got no match for: ${diff.map(String).join(', ')}${where}`] : [];
  }
  return choices.includes(value) ? [] : [`value of ${name} must be one of: ${show}, got: ${String(value)}${where}`];
}

export const validateArgumentSpecModule: Module<Args> = {
  name: 'validate_argument_spec',
  doc: validateArgumentSpecDoc,
  args,
  environment: 'irrelevant',
  // The spec is data (descriptions may hold braces): never rendered.
  expressionArgs: ['argument_spec', 'validate_args_context'],
  async run(a, ctx) {
    const fromVars: Record<string, unknown> = {};
    for (const name of Object.keys(a.argument_spec)) if (ctx.vars[name] !== undefined) fromVars[name] = ctx.vars[name];
    const errors = validateAgainstSpec(a.argument_spec, { ...fromVars, ...a.provided_arguments });
    const context = a.validate_args_context ?? {};
    if (errors.length) {
      return { changed: false, failed: true, msg: `Validation of arguments failed:\n${errors.join('\n')}`, argument_errors: errors, argument_spec_data: a.argument_spec, validate_args_context: context };
    }
    return { changed: false, msg: 'The arg spec validation passed', validate_args_context: context };
  },
};
