// Dynamic includes at run time, as Ansible's linear strategy runs them: each host evaluates the
// include (its loop, its `when`, its target rendered with that host's vars and facts); hosts that
// included the same file with the same item run its tasks together, in the order they were included.
// The include's own when/tags/ignore_errors/no_log stay on it; its vars and the loop item reach the tasks.
import path from 'node:path';
import { BadInputError, HostwireError, IncludeTargetError, TransportError } from '../../errors.js';
import { evalCondition, renderValue, withLoopItems } from '../vars/index.js';
import type { BlockDef, IncludeLoaded, IncludeSpec, PlayDef, TaskDef, TaskItem, Vars } from '../playbook/types.js';
import { includeRegistered, markRoleRun, roleAlreadyRun } from './include-result.js';
import { loadIncludedModules } from './task-modules.js';
import { renderedIncludeBool } from '../playbook/role-include-args.js';
import type { HostResult, TaskInfo } from './events.js';
import { isActive, type HostState } from './host-state.js';
import { childScope, type Scope } from './task-vars.js';
import { shouldRunByTags, type TagFilter } from './tags.js';
import { setOwn } from '../../own-keys.js';

/** What the play runner lends an include. */
export interface IncludeHost {
  play: PlayDef;
  tags: TagFilter;
  varsFor(h: HostState, scope: Scope, task: TaskDef, extra?: Vars): Vars;
  taskInfo(task: TaskDef, scope: Scope, first?: HostState): TaskInfo;
  emit(e: { type: 'task_start'; task: TaskInfo }): void;
  record(task: TaskDef, h: HostState, result: HostResult, info: TaskInfo): void;
  runItems(items: TaskItem[], scope: Scope, hosts: HostState[]): Promise<void>;
}

interface Inclusion {
  key: string;
  hosts: HostState[];
  itemVars?: Vars;
  loaded: IncludeLoaded;
  /** public: rendered true for a host that included it. */
  public?: boolean;
  /** Hosts whose allow_duplicates rendered false: they skip the role if they ran it already. */
  noDuplicates: Set<HostState>;
}

interface Found {
  key: string;
  itemVars?: Vars;
  target: string;
  loaded: IncludeLoaded;
  public?: boolean;
  allowDuplicates?: boolean;
}

const TRUE_WORDS = new Set(['yes', 'true', 'on', '1', 'y', 't']);

/** ignore_errors may be a template ("{{ x }}"): rendered with the host's vars. */
function ignoresErrors(task: TaskDef, vars: () => Vars): boolean {
  let v = task.ignoreErrors;
  if (typeof v === 'string' && /{{|{%/.test(v)) v = renderValue(v, vars(), task.loc);
  return v === true || v === 1 || (typeof v === 'string' && TRUE_WORDS.has(v.trim().toLowerCase()));
}

/** The loop's items for one host (one undefined item without a loop). */
function loopItems(spec: IncludeSpec, vars: Vars): unknown[] {
  const task = spec.task;
  if (task.loop === undefined) return [undefined];
  if (spec.loopWith) {
    // first_found and friends search the role and the including file's directory, as Ansible's search path.
    const searchPath = [task.role?.dir, path.dirname(task.loc.file)].filter((d): d is string => typeof d === 'string');
    return withLoopItems(spec.loopWith, task.loop, Object.assign(Object.create(vars) as Vars, { ansible_search_path: searchPath }));
  }
  const items = renderValue(task.loop, vars, task.loc);
  if (!Array.isArray(items)) throw new BadInputError(`loop must render to a list, got ${JSON.stringify(items)}`, task.loc);
  return items;
}

/** The include's *_from files rendered with the host's vars (include_role; Ansible keeps their basename). */
function renderFrom(spec: IncludeSpec, vars: Vars): IncludeSpec['from'] {
  const out: IncludeSpec['from'] = {};
  for (const [k, v] of Object.entries(spec.from) as [keyof IncludeSpec['from'], string | undefined][]) {
    if (v !== undefined) out[k] = path.basename(String(renderValue(v, vars, spec.task.loc)));
  }
  return out;
}

/** Evaluates the include on one host: the inclusions it makes, in order (none when `when` skips them all). */
async function resolveOnHost(r: IncludeHost, spec: IncludeSpec, scope: Scope, h: HostState): Promise<{ found: Found[]; results: Vars[] }> {
  const task = spec.task;
  const when = [...scope.when, ...task.when] as (string | boolean)[];
  const found: Found[] = [];
  /** Every item's registered result, in item order. */
  const results: Vars[] = [];
  for (const item of loopItems(spec, r.varsFor(h, scope, task))) {
    const itemVars = task.loop === undefined ? undefined : { [task.loopVar]: item, ansible_loop_var: task.loopVar };
    const vars = r.varsFor(h, scope, task, itemVars);
    if (!evalCondition(when, vars, task.loc)) {
      results.push({ changed: false, skipped: true, skip_reason: 'Conditional result was False', ...itemVars });
      continue;
    }
    const target = String(renderValue(spec.target, vars, task.loc));
    const from = renderFrom(spec, vars);
    // include_role's options, templates rendered with this host's vars (Ansible post-validates the include per host).
    const option = (key: string, v: boolean | string | undefined) => renderedIncludeBool(key, v, (tpl) => renderValue(tpl, vars, task.loc), task.loc);
    const validate = option('rolespec_validate', spec.validate);
    const loaded = await spec.load(target, from, task.loc, validate).catch((err: unknown) => {
      throw err instanceof BadInputError && !(err instanceof IncludeTargetError) ? new UnparsedInclude(err) : err;
    });
    const shown = from.tasks ? `${target} (${from.tasks})` : target;
    const isPublic = option('public', spec.public);
    const allowDuplicates = option('allow_duplicates', spec.allowDuplicates);
    found.push({ key: `${target}\0${JSON.stringify(from)}\0${JSON.stringify(item) ?? ''}\0${validate}`, itemVars, target: shown, loaded, public: isPublic, allowDuplicates });
    results.push({ ...includeRegistered(spec, target), ...itemVars });
  }
  return { found, results };
}

/** An included file that does not load for a reason other than its absence: ends the run (see runInclude). */
class UnparsedInclude {
  constructor(readonly error: BadInputError) {}
}

export async function runInclude(r: IncludeHost, block: BlockDef, scope: Scope, hosts: HostState[]): Promise<void> {
  const spec = block.dynamic!;
  const task = spec.task;
  // The include's tags select the include itself; the included tasks are selected by their own (and apply:'s).
  if (!shouldRunByTags([...new Set([...scope.tags, ...task.tags])], r.tags) || hosts.length === 0) return;
  const info = r.taskInfo(task, scope, hosts[0]);
  r.emit({ type: 'task_start', task: info });
  const inclusions: Inclusion[] = [];
  // run_once: as Ansible's linear strategy queues it, the include runs for the first host only, and so
  // do the tasks it includes (IncludedFile.process_include_results sees that one host's result).
  const runOnce = task.runOnce ?? scope.runOnce;
  for (const h of runOnce ? hosts.slice(0, 1) : hosts) {
    const started = Date.now();
    try {
      const { found, results } = await resolveOnHost(r, spec, scope, h);
      for (const f of found) {
        const same = inclusions.find((i) => i.key === f.key);
        if (same) {
          same.hosts.push(h);
          same.public ||= f.public;
          if (f.allowDuplicates === false) same.noDuplicates.add(h);
        } else inclusions.push({ key: f.key, hosts: [h], itemVars: f.itemVars, loaded: f.loaded, public: f.public, noDuplicates: new Set(f.allowDuplicates === false ? [h] : []) });
      }
      // run_once: the one result is registered for every host, as Ansible's get_task_hosts does.
      if (task.register) for (const x of runOnce ? hosts : [h]) setOwn(x.runtimeVars, task.register, registeredValue(task, found.length, results));
      const status = found.length ? 'ok' : 'skipped';
      const msg = found.length ? `included: ${[...new Set(found.map((f) => f.target))].join(', ')}` : 'Conditional result was False';
      r.record(task, h, { host: h.name, status, msg, noLog: task.noLog, durationMs: Date.now() - started }, info);
    } catch (err) {
      // An included file that does not parse (a bad keyword, an unknown module) ends the run, as Ansible's
      // strategy re-raises _load_included_file's AnsibleParserError (ERROR!, no recap); a file or role that
      // is not there, and what the host's own vars break, fail the host.
      if (err instanceof UnparsedInclude) throw err.error;
      const msg = err instanceof HostwireError || err instanceof Error ? err.message : String(err);
      const status = err instanceof TransportError ? 'unreachable' : 'failed';
      const ignored = status === 'failed' && ignoresErrors(task, () => r.varsFor(h, scope, task));
      if (task.register && status === 'failed') setOwn(h.runtimeVars, task.register, { failed: true, changed: false, msg });
      r.record(task, h, { host: h.name, status, ignored, msg, noLog: task.noLog, durationMs: Date.now() - started, result: { failed: true, msg } }, info);
    }
  }
  for (const inc of inclusions) {
    // The native modules the included tasks name, loaded once per inclusion (not per host or item).
    await loadIncludedModules(inc.loaded.tasks, inc.loaded.handlers);
    // A role's handlers join the play's when the role is first included.
    for (const hd of inc.loaded.handlers) if (!r.play.handlers.includes(hd)) r.play.handlers.push(hd);
    // public: true - the role's vars and defaults are the play's from now on (IncludeRole appends it to play.roles).
    if (inc.public && inc.loaded.role && !r.play.roles.includes(inc.loaded.role)) r.play.roles.push(inc.loaded.role);
    const withItem = inc.itemVars ? childScope(scope, { vars: {}, data: inc.itemVars, when: [], tags: [] }) : scope;
    const s = childScope(withItem, { vars: block.vars, when: [], tags: [] });
    // allow_duplicates: false - a host that already ran this role (same files and vars) does not run it again.
    const active = inc.hosts.filter((h) => isActive(h) && !(inc.noDuplicates.has(h) && roleAlreadyRun(h, inc.loaded.roleKey)));
    if (active.length) await r.runItems(inc.loaded.tasks, s, active);
    for (const h of active) markRoleRun(h, inc.loaded.roleKey);
  }
}

/** The include's registered value: one result, or Ansible's loop aggregate of every item. */
function registeredValue(task: TaskDef, included: number, results: Vars[]): Vars {
  if (task.loop === undefined) return results[0] ?? { changed: false };
  if (results.length === 0) return { results, changed: false, skipped: true, skipped_reason: 'No items in the list' };
  const allSkipped = included === 0;
  return { results, changed: false, skipped: allSkipped, msg: allSkipped ? 'All items skipped' : 'All items completed' };
}
