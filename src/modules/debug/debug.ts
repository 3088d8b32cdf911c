// Modules that act on the run itself rather than on host state: debug, assert, fail, set_fact, meta.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { ansibleBooleanValue } from '../kit/ansible-args.js';
import type { Module, ModuleContext, TaskExpressions } from '../types.js';
import { debugDoc, assertDoc, failDoc, setFactDoc, metaDoc } from './doc.js';
import { setOwn } from '../../own-keys.js';

const debugArgs = z.object({ msg: z.unknown().optional(), var: z.unknown().optional(), verbosity: z.coerce.number().int().default(0) }).strict();

/** Python's type(x) as Ansible names a non-string `var` in its output key. */
const pyTypeName = (v: unknown) => (Array.isArray(v) ? "<class 'list'>" : "<class 'dict'>");

/** The runner lends every task its expressions; a context built without them cannot run debug/assert. */
function expressionsOf(ctx: ModuleContext, module: string): TaskExpressions {
  if (!ctx.expressions) throw new HostwireError('internal', `${module} needs the task's expressions (ModuleContext.expressions), and this context has none`, { host: ctx.host });
  return ctx.expressions;
}

/** `var` is an expression (r.stdout_lines, x | length); an undefined one prints as Ansible's marker. */
function evalVar(expr: unknown, ctx: ModuleContext): unknown {
  if (typeof expr !== 'string') return expr;
  const r = expressionsOf(ctx, 'debug').value(expr);
  return r.defined ? r.value : 'VARIABLE IS NOT DEFINED!';
}

/** ansible-core's debug action: msg or var (never both), shown only up to its verbosity. */
export const debugModule: Module<z.infer<typeof debugArgs>> = {
  name: 'debug',
  doc: debugDoc,
  environment: 'irrelevant',
  args: debugArgs.refine((a) => a.msg === undefined || a.var === undefined, { message: "'msg' and 'var' are incompatible options" }),
  expressionArgs: ['var'],
  async run(args, ctx) {
    if (args.verbosity > (ctx.verbosity ?? 0)) return { changed: false, skipped: true, skipped_reason: 'Verbosity threshold not met.', failed: false };
    if (args.var !== undefined) {
      const key = typeof args.var === 'string' ? args.var : pyTypeName(args.var);
      return { changed: false, failed: false, [key]: evalVar(args.var, ctx) };
    }
    return { changed: false, failed: false, msg: args.msg === undefined ? 'Hello world!' : args.msg };
  },
};

const assertArgs = z
  .object({
    that: z.union([z.string(), z.boolean(), z.array(z.union([z.string(), z.boolean()]))]),
    fail_msg: z.unknown().optional(),
    msg: z.unknown().optional(),
    success_msg: z.unknown().optional(),
    quiet: z.boolean().default(false),
  })
  .strict();
export const assertModule: Module<z.infer<typeof assertArgs>> = {
  name: 'assert',
  doc: assertDoc,
  environment: 'irrelevant',
  args: assertArgs,
  expressionArgs: ['that'],
  async run(args, ctx) {
    const expressions = expressionsOf(ctx, 'assert');
    for (const cond of [args.that].flat()) {
      if (!expressions.condition(cond)) {
        return { changed: false, failed: true, assertion: cond, evaluated_to: false, msg: args.fail_msg ?? args.msg ?? `Assertion failed: ${String(cond)}` };
      }
    }
    return { changed: false, msg: args.success_msg ?? 'All assertions passed' };
  },
};

const failArgs = z.object({ msg: z.unknown().default('Failed as requested from task') }).strict();
export const failModule: Module<z.infer<typeof failArgs>> = {
  name: 'fail',
  doc: failDoc,
  environment: 'irrelevant',
  args: failArgs,
  async run(args) {
    return { changed: false, failed: true, msg: args.msg as string };
  },
};

const setFactArgs = z.record(z.unknown());
const SET_FACT_BOOLS = new Set(['true', 'false', 'yes', 'no']);
export const setFactModule: Module<Record<string, unknown>> = {
  name: 'set_fact',
  doc: setFactDoc,
  factsLevel: 'set_fact',
  environment: 'irrelevant',
  args: setFactArgs,
  async run(args, ctx) {
    const facts: Record<string, unknown> = {};
    // Ansible templates each key (a loop's "c{{ item }}") and wants a variable name.
    for (const [key, v] of Object.entries(args)) {
      if (key === 'cacheable') continue;
      const k = /\{\{|\{%/.test(key) ? ctx.render(key) : key;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) {
        return { changed: false, failed: true, msg: `The variable name '${k}' is not valid. Variables must start with a letter or underscore character, and contain only letters, numbers and underscores.` };
      }
      setOwn(facts, k, v);
    }
    // cacheable: the facts also become host facts (ansible_facts.X, cleared by meta: clear_facts) -
    // the runner reads this key, as Ansible's strategy pops it; with no fact cache that is all it does.
    const cacheable = args.cacheable === undefined ? false : ansibleBooleanValue(args.cacheable);
    if (cacheable === undefined) {
      return { changed: false, failed: true, msg: `Unexpected failure during module execution: The value '${String(args.cacheable)}' is not a valid boolean.  Valid booleans include: 'y', 1, 0, 'f', 'yes', 'off', '0', 'n', 'on', 't', 'no', 'true', '1', 'false'` };
    }
    // ansible-core's set_fact (jinja2_native off): text true/false/yes/no becomes a bool.
    for (const [k, v] of Object.entries(facts)) if (typeof v === 'string' && SET_FACT_BOOLS.has(v.toLowerCase())) setOwn(facts, k, ['true', 'yes'].includes(v.toLowerCase()));
    return { changed: false, ansible_facts: facts, ...(cacheable ? { _ansible_facts_cacheable: true } : {}) };
  },
};

const metaArgs = z.object({ _raw_params: z.enum(['flush_handlers', 'end_play', 'end_host', 'clear_facts', 'noop', 'refresh_inventory', 'clear_host_errors', 'reset_connection']) }).strict();
/** The runner acts on meta tasks itself; the module only validates the action name. */
export const metaModule: Module<z.infer<typeof metaArgs>> = {
  name: 'meta',
  doc: metaDoc,
  environment: 'irrelevant',
  args: metaArgs,
  async run() {
    return { changed: false };
  },
};
