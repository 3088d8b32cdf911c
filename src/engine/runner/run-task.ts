// One task on one host: loop items, `when`, the module itself, until/retries, changed_when,
// failed_when, ignore_errors, register, notify. Returns the host's result for the renderers.
import { BadInputError, HostwireError, TransportError, formatLoc } from '../../errors.js';
import { evalCondition, loopItems, readsSecret, renderValue } from '../vars/index.js';
import { hideSecretDiff } from './secret-diff.js';
import { getModule } from '../../modules/registry.js';
import { parseModuleArgs } from '../../modules/kit/ansible-coerce.js';
import { readYamlFile } from '../yaml-source.js';
import type { DeferredStep, Module, ModuleContext, ModuleResult } from '../../modules/types.js';
import { applyChanges } from '../../modules/kit/apply.js';
import type { TaskDef, Vars } from '../playbook/types.js';
import type { Transport, BecomeOptions } from '../../transports/transport.js';
import type { HostResult, TaskStatus } from './events.js';
import type { HostState } from './host-state.js';
import { invalidateProbes, readProbe, readProbeOn, type Lookahead } from '../../probe/read-ahead.js';
import { renderString, taskExpressions } from '../vars/index.js';
import { formatArgsError } from './args-error.js';
import { environmentFor, renderEnvironment } from './environment.js';
import { atTemplateLine } from './template-error.js';
import { askBeforeApply, type AskFn, type ConfirmFn } from './confirm.js';
import { asyncSeconds, runAsync, taskSeconds } from './run-async.js';
import { timeoutSeconds, underTimeout } from './task-timeout.js';
import { displayName } from './task-name.js';
import { registerUnreachable } from './unreachable.js';
import { defaultArgs } from './module-defaults.js';
import type { ModuleDefaults } from '../playbook/module-defaults.js';
import { assignOwn, setOwn } from '../../own-keys.js';

export interface TaskRunOptions {
  /** The task's effective check mode (its check_mode keyword, inherited, or --check). */
  check: boolean;
  /** `environment:` layers (play, blocks, task), rendered per item. */
  environment?: unknown[];
  /** `module_defaults:` levels (play, roles, blocks, task), outermost first. */
  moduleDefaults?: readonly ModuleDefaults[];
  diff: boolean;
  verbosity?: number;
  become?: BecomeOptions;
  /** The transport to act through (differs from the host's own with delegate_to). */
  transport: Transport;
  /** The deferred steps of the host acted on (see DeferredStep). */
  deferred: Map<string, DeferredStep>;
  /** The rendered delegate_to target, for display. */
  delegatedTo?: string;
  lookahead?: Lookahead<HostState>;
  /** delegate_facts: the delegated host, which receives the task's ansible_facts instead of `h`. */
  factsTo?: HostState;
  sleep(ms: number): Promise<void>;
  confirm?: ConfirmFn;
  /** The run was interrupted (an async poll stops waiting). */
  interrupted?(): boolean;
  /** pause's prompt (ModuleContext.ask), on an interactive run only. */
  ask?(question: string, echo: boolean): Promise<string>;
  /** An interruptible wait lent to modules (ModuleContext.wait). */
  wait?(ms: number): Promise<boolean>;
  /** Sees each module result before changed_when/failed_when: the run's own effects (add_host, group_by, set_stats). */
  onResult?(result: ModuleResult): void;
}

const SKIP_REASON = 'Conditional result was False';
/** What Ansible registers for a task (or loop item) its `when` skipped. */
const whenSkipped = () => ({ changed: false, skipped: true, skip_reason: SKIP_REASON });

const isTrue = (v: unknown) => v === true || (typeof v === 'string' && ['yes', 'true', 'on', '1'].includes(v.toLowerCase()));

/** Runs the task (all loop items) for one host; `varsFor(extra)` gives the host's vars for an item. */
export async function runTaskOnHost(task: TaskDef, h: HostState, varsFor: (extra?: Vars) => Vars, whenConds: unknown[], opts: TaskRunOptions): Promise<HostResult> {
  const started = Date.now();
  const base: Pick<HostResult, 'host' | 'noLog' | 'delegatedTo'> = { host: h.name, noLog: task.noLog, delegatedTo: opts.delegatedTo };
  try {
    if (task.loop === undefined) {
      const vars = varsFor();
      if (!evalCondition(whenConds as (string | boolean)[], vars, task.loc)) {
        // As in Ansible, a skipped task still registers (its skip result).
        finish(task, h, whenSkipped(), opts.factsTo);
        return { ...base, status: 'skipped', durationMs: Date.now() - started, msg: SKIP_REASON };
      }
      const r = await runOnce(task, h, vars, (x) => varsFor(x), opts);
      finish(task, h, r.result, opts.factsTo);
      return { ...base, ...r, durationMs: Date.now() - started };
    }
    const items = loopItems(task, varsFor());
    const results: Record<string, unknown>[] = [];
    const perItem: HostResult[] = [];
    for (const item of items) {
      const vars = varsFor({ [task.loopVar]: item, ansible_loop_var: task.loopVar });
      const label = task.loopLabel !== undefined ? String(renderValue(task.loopLabel, vars, task.loc)) : typeof item === 'string' ? item : JSON.stringify(item);
      if (!evalCondition(whenConds as (string | boolean)[], vars, task.loc)) {
        results.push({ ...whenSkipped(), [task.loopVar]: item, ansible_loop_var: task.loopVar });
        perItem.push({ ...base, status: 'skipped', label, item, durationMs: 0 });
        continue;
      }
      const itemVars = { [task.loopVar]: item, ansible_loop_var: task.loopVar };
      // As Ansible: an item that fails (a command error, a bad rendered argument) is that item's
      // failure; the later items still run. Only a lost connection ends the loop (the host is gone).
      const r = await runOnce(task, h, vars, (x) => varsFor({ ...itemVars, ...x }), opts).catch((err: unknown) => {
        if (err instanceof TransportError) throw err;
        const msg = err instanceof HostwireError ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
        return { status: 'failed' as const, msg, ignored: isTrue(task.ignoreErrors), result: { failed: true, changed: false, msg } };
      });
      results.push({ ...r.result, [task.loopVar]: item, ansible_loop_var: task.loopVar });
      perItem.push({ ...base, ...r, label, item, durationMs: 0 });
    }
    const anyFailed = perItem.some((r) => r.status === 'failed' && !r.ignored);
    const anyChanged = perItem.some((r) => r.status === 'changed');
    const allSkipped = perItem.length > 0 && perItem.every((r) => r.status === 'skipped');
    const aggregate: Record<string, unknown> = items.length === 0
      ? { results, changed: false, skipped: true, skipped_reason: 'No items in the list' }
      : { results, changed: anyChanged, failed: anyFailed, skipped: allSkipped, msg: anyFailed ? failedItemsMessage(perItem) : 'All items completed' };
    finish(task, h, aggregate, opts.factsTo);
    const status: TaskStatus = anyFailed ? 'failed' : anyChanged ? 'changed' : allSkipped || perItem.length === 0 ? 'skipped' : 'ok';
    const ignored = anyFailed && isTrue(task.ignoreErrors);
    return { ...base, status, ignored, msg: aggregate.msg as string | undefined, diff: perItem.flatMap((r) => r.diff ?? []), result: { ...aggregate, items: perItem }, durationMs: Date.now() - started };
  } catch (err) {
    return failedResult(h, task, err, started, opts.delegatedTo);
  }
}

/** Ansible's "One or more items failed", naming each failed item and why. */
function failedItemsMessage(items: HostResult[]): string {
  const failed = items.filter((r) => r.status === 'failed' && !r.ignored);
  return `One or more items failed: ${failed.map((r) => `item '${r.label}': ${r.msg ?? 'failed'}`).join('; ')}`;
}

/** A task that raised (bad input, a template error, a lost connection): Ansible's failed result, registered too. */
export function failedResult(h: HostState, task: TaskDef, err: unknown, started = Date.now(), delegatedTo?: string): HostResult {
  const base: Pick<HostResult, 'host' | 'noLog' | 'delegatedTo'> = { host: h.name, noLog: task.noLog, delegatedTo };
  if (err instanceof TransportError) {
    registerUnreachable(h, task.register, err.message);
    return { ...base, status: 'unreachable', msg: err.message, durationMs: Date.now() - started };
  }
  const msg = err instanceof HostwireError ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
  const ignored = isTrue(task.ignoreErrors);
  if (task.register) setOwn(h.runtimeVars, task.register, { failed: true, changed: false, msg });
  return { ...base, status: 'failed', ignored, msg, durationMs: Date.now() - started, result: { failed: true, msg, exception: err } };
}

/** `factsTo`: where ansible_facts go (the delegate, with delegate_facts); the register stays on `h`. */
function finish(task: TaskDef, h: HostState, result: Record<string, unknown>, factsTo: HostState = h): void {
  const parts = [result, ...(Array.isArray(result.results) ? (result.results as (Record<string, unknown> | null)[]) : [])];
  // set_fact cacheable (Ansible's strategy pops the key): its facts are host facts too, as a memory fact cache keeps them.
  const cacheable = parts.map((r) => {
    const c = r?._ansible_facts_cacheable === true;
    if (r) delete r._ansible_facts_cacheable;
    return c;
  });
  if (task.register) setOwn(h.runtimeVars, task.register, result);
  const level = getModule(task.module)?.factsLevel;
  parts.forEach((r, i) => {
    const facts = r?.ansible_facts;
    if (!facts || typeof facts !== 'object' || Array.isArray(facts)) return;
    if (level === 'include_vars') assignOwn(factsTo.includedVars, facts);
    else if (level === 'set_fact') assignOwn(factsTo.runtimeVars, facts);
    // A new object: ansible_facts' namespaced view is cached per facts object.
    if (level === undefined || level === 'host' || (level === 'set_fact' && cacheable[i])) factsTo.facts = { ...factsTo.facts, ...(facts as Vars) };
  });
}

interface OnceResult {
  status: TaskStatus;
  msg?: string;
  stdout?: string;
  stderr?: string;
  rc?: number;
  diff?: HostResult['diff'];
  ignored?: boolean;
  result: Record<string, unknown>;
}

/** `withResult` builds the task's vars plus the result (for until/changed_when/failed_when) without copying a lazy view. */
async function runOnce(task: TaskDef, h: HostState, vars: Vars, withResult: (extra: Vars) => Vars, opts: TaskRunOptions): Promise<OnceResult> {
  const mod = getModule(task.module);
  if (!mod) throw new BadInputError(`couldn't resolve module/action '${task.module}'`, task.loc);
  const args = readsSecret(() => taskArgs(mod, task, vars, opts.moduleDefaults));
  const rendered = args.value;
  let readSecret = args.secret;
  const parsed = parseModuleArgs(mod.args, rendered);
  if (!parsed.success) throw new BadInputError(formatArgsError(task.module, parsed.error, rendered), task.loc);
  const check = opts.check;
  const ctx: ModuleContext = {
    host: h.name,
    transport: opts.transport,
    check,
    environment: environmentFor(mod, renderEnvironment(opts.environment ?? [], vars, task.loc), task.loc),
    diff: opts.diff,
    verbosity: opts.verbosity,
    become: opts.become,
    noLog: task.noLog,
    vars,
    baseDir: task.baseDir,
    render: (tpl, file) => {
      let out;
      try {
        out = readsSecret(() => renderString(tpl, vars, task.loc));
      } catch (err) {
        throw file ? atTemplateLine(err, tpl, file, task.loc) : err;
      }
      readSecret ||= out.secret;
      return out.value;
    },
    deferred: opts.deferred,
    expressions: taskExpressions(vars),
    readVarsFile: readYamlFile,
    wait: opts.wait,
    ask: opts.ask,
    taskName: displayName(task.name ?? task.written, () => vars),
    probe: (p) => (opts.transport === h.transport ? readProbe(h, p, opts.lookahead, opts.become) : readProbeOn(opts.transport, p, opts.become)),
  };
  const ask: AskFn | undefined = opts.confirm && ((changes) => opts.confirm!({ host: h.name, task: task.name ?? task.written, changes }));
  let result: ModuleResult;
  let attempts = 0;
  const retries = task.until === undefined ? 0 : taskSeconds(task, 'retries', vars)!;
  const delay = task.until === undefined ? 0 : taskSeconds(task, 'delay', vars)!;
  for (;;) {
    attempts++;
    const detached = asyncSeconds(task, vars);
    result = await underTimeout(timeoutSeconds(task, vars), task.written, ctx, (c) => (detached > 0 ? runAsync(mod, parsed.data, c, task, detached, opts) : execModule(mod, parsed.data, c, h, ask)));
    if (readSecret) hideSecretDiff(result);
    opts.onResult?.(result);
    if (task.until === undefined) break;
    const untilVars = withResult(task.register ? { [task.register]: result } : result);
    if (evalCondition(task.until as string, untilVars, task.loc) || attempts > retries) {
      if (attempts > retries && !evalCondition(task.until as string, untilVars, task.loc)) {
        result = { ...result, failed: true, msg: `retries exhausted (${retries}) waiting for: ${String(task.until)}` };
      }
      result.attempts = attempts;
      break;
    }
    await opts.sleep(delay * 1000);
  }
  const condVars = withResult({ ...result, ...(task.register ? { [task.register]: result } : {}) });
  let changed = Boolean(result.changed);
  if (task.changedWhen !== undefined) changed = evalCondition(task.changedWhen as string, condVars, task.loc);
  let failed = Boolean(result.failed);
  if (task.failedWhen !== undefined) failed = evalCondition(task.failedWhen as string, condVars, task.loc);
  result.changed = changed;
  result.failed = failed;
  if (changed || result.failed) invalidateProbes(h); // a part-way failure (systemd: enabled, then start failed) reports changed false, as Ansible
  const status: TaskStatus = failed ? 'failed' : result.skipped ? 'skipped' : changed ? 'changed' : 'ok';
  return {
    status,
    msg: result.msg === undefined ? undefined : typeof result.msg === 'string' ? result.msg : JSON.stringify(result.msg),
    stdout: result.stdout as string | undefined,
    stderr: result.stderr as string | undefined,
    rc: result.rc as number | undefined,
    diff: result.diff,
    ignored: failed && isTrue(task.ignoreErrors),
    result,
  };
}

/** The task's own arguments over its module_defaults (rendered apart: nothing is rendered twice). */
function taskArgs(mod: Module<any, any>, task: TaskDef, vars: Vars, defaults: readonly ModuleDefaults[] = []): Vars {
  return { ...defaultArgs(defaults, task.written, vars, task.loc), ...renderArgs(mod, task, vars) };
}

/** The task's args rendered, except the expressions a module evaluates itself (see Module.expressionArgs). */
function renderArgs(mod: Module<any, any>, task: TaskDef, vars: Vars): Vars {
  const raw = mod.expressionArgs?.filter((k) => k in task.args) ?? [];
  if (raw.length === 0) return renderValue(task.args, vars, task.loc) as Vars;
  const rest = Object.fromEntries(Object.entries(task.args).filter(([k]) => !raw.includes(k)));
  return { ...(renderValue(rest, vars, task.loc) as Vars), ...Object.fromEntries(raw.map((k) => [k, task.args[k]])) };
}

/** The one check-mode gate for modules that cannot predict their outcome (Module.skipsInCheck). */
const skipsInCheck = (mod: Module<any, any>, args: unknown): boolean => (typeof mod.skipsInCheck === 'function' ? mod.skipsInCheck(args) : mod.skipsInCheck === true);

export async function execModule(mod: Module<any, any>, args: unknown, ctx: ModuleContext, h: HostState, ask?: AskFn): Promise<ModuleResult> {
  if (ctx.check && skipsInCheck(mod, args)) return mod.checkSkipped?.(args) ?? { changed: false, skipped: true, msg: `remote module (${mod.name}) does not support check mode` };
  if (mod.run) return mod.run(args, ctx);
  if (!mod.probe || !mod.plan) throw new HostwireError('internal', `module ${mod.name} has neither run() nor probe()/plan()`);
  const state = await ctx.probe(mod.probe(args, ctx));
  const changes = mod.plan(state, args, ctx);
  if (changes.length === 0) return { changed: false };
  const diff = changes.filter((c) => c.before !== undefined || c.after !== undefined).map((c) => ({ header: c.summary, before: c.before, after: c.after }));
  let reported: Record<string, unknown> = {};
  if (!ctx.check) {
    const refused = await askBeforeApply(changes, ask);
    if (refused) return { changed: false, failed: true, msg: refused, diff, changes: changes.map((c) => c.summary) };
    try {
      reported = (mod.apply ? await mod.apply(changes, args, ctx) : await applyChanges(changes, ctx)) ?? {};
    } finally {
      // Even a failed apply may have changed something: the next read must be fresh.
      invalidateProbes(h);
    }
  }
  return { ...reported, changed: true, msg: changes.map((c) => c.summary).join('; '), diff, changes: changes.map((c) => c.summary) };
}

export const describeTaskLoc = (task: TaskDef) => formatLoc(task.loc);
