// include_tasks / include_role as Ansible's TaskInclude / IncludeRole: dynamic includes, resolved per
// host at run time. The loader checks their keywords and arguments, loads a target that is no template
// ahead (so --list-tasks/lookahead see it, and its errors are told before the run), and leaves the runner a
// loader for targets rendered from host vars ("{{ ansible_os_family | lower }}.yml").
import path from 'node:path';
import { BadInputError, formatLoc, IncludeTargetError, type SourceLoc } from '../../errors.js';
import { isTemplated } from '../vars/index.js';
import { locOf, readYamlFile } from '../yaml-source.js';
import { describe } from './keyword-types.js';
import { inheritInto } from './inherit.js';
import type { BlockDef, IncludeLoaded, IncludeSpec, TaskDef, TaskItem, Vars } from './types.js';
import { taskFilePath } from './task-file-path.js';
import type { RoleFromFiles, TaskLoadContext } from './load-context.js';
import { fromFiles, includeRoleOptions } from './role-include-args.js';

// TaskInclude.VALID_INCLUDE_KEYWORDS (ansible-core 2.14), with_* being loop_with.
const VALID_INCLUDE_KEYWORDS = new Set([
  'action', 'args', 'collections', 'debugger', 'ignore_errors', 'loop', 'loop_control', 'name', 'no_log',
  'register', 'run_once', 'tags', 'timeout', 'vars', 'when',
]);
const VALID_ARGS = {
  include_tasks: new Set(['file', '_raw_params', 'apply']),
  include_role: new Set(['name', 'role', 'tasks_from', 'vars_from', 'defaults_from', 'handlers_from', 'public', 'allow_duplicates', 'apply', 'rolespec_validate']),
};
// Keywords hostwire does not act on for an include: refused rather than silently dropped (none left).
const NOT_SUPPORTED: Record<string, string> = {};

export interface IncludeParts {
  module: 'include_tasks' | 'include_role';
  written: string;
  rawArgs: unknown;
  /** The include as a task: its name, when, tags, loop, ignore_errors, no_log, vars. */
  task: TaskDef;
  loc: SourceLoc;
}

/** Ansible refuses a keyword an include cannot take ("'become' is not a valid attribute for a TaskInclude"). */
export function checkIncludeKeywords(t: Record<string, unknown>, module: string, actionKey: string, loc: SourceLoc): void {
  const cls = module === 'include_role' ? 'IncludeRole' : 'TaskInclude';
  for (const k of Object.keys(t)) {
    if (k === actionKey || k.startsWith('with_') || VALID_INCLUDE_KEYWORDS.has(k) && !(k in NOT_SUPPORTED)) continue;
    const why = NOT_SUPPORTED[k] ?? `set it in apply: (${module} applies it to the included tasks) or use ${module.replace('include', 'import')}`;
    throw new BadInputError(`'${k}' is not a valid attribute for a ${cls}: ${why}`, locOf(t, k) ?? loc);
  }
}

function includeArgs(p: IncludeParts): Record<string, unknown> {
  const raw = p.rawArgs;
  if (typeof raw === 'string') return p.module === 'include_tasks' ? { file: raw } : { name: raw };
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new BadInputError(`arguments of '${p.written}' must be a mapping or a file name, got ${describe(raw)}`, p.loc);
  const a = { ...(raw as Record<string, unknown>) };
  for (const k of Object.keys(a)) {
    if (!VALID_ARGS[p.module].has(k)) throw new BadInputError(`Invalid options for ${p.module}: ${k} (expected ${[...VALID_ARGS[p.module]].filter((x) => x !== '_raw_params').join(', ')})`, locOf(raw, k) ?? p.loc);
    if (k in NOT_SUPPORTED) throw new BadInputError(`${p.module}: '${k}' is not supported: ${NOT_SUPPORTED[k]}`, locOf(raw, k) ?? p.loc);
  }
  if (a._raw_params !== undefined) a.file ??= a._raw_params;
  if (a.name === undefined && a.role !== undefined) a.name = a.role;
  return a;
}

/** What registering the include gives (Ansible's TaskExecutor: include_args are the include's arguments). */
function resultArgs(p: IncludeParts, args: Record<string, unknown>): Vars {
  const out = { ...args };
  if (p.module === 'include_tasks') {
    delete out.file;
    delete out._raw_params;
  }
  return out;
}

/** `apply:` keywords become a block around the included tasks (TaskInclude.build_parent_block). */
async function applyBlock(apply: unknown, p: IncludeParts, ctx: TaskLoadContext, loadTask: LoadTaskFn): Promise<BlockDef | undefined> {
  if (apply === undefined || apply === null) return undefined;
  if (typeof apply !== 'object' || Array.isArray(apply)) throw new BadInputError(`Expected a dict for apply but got ${describe(apply)} instead`, p.loc);
  if ('block' in apply) throw new BadInputError(`apply: takes task keywords (become, tags, when...), not 'block'`, locOf(apply, 'block') ?? p.loc);
  const [block] = await loadTask({ ...(apply as Vars), block: [] }, ctx, locOf(apply) ?? p.loc);
  return block as BlockDef;
}

type LoadTaskFn = (raw: unknown, ctx: TaskLoadContext, at?: SourceLoc) => Promise<TaskItem[]>;
type LoadListFn = (raw: unknown, ctx: TaskLoadContext, where: string, at?: SourceLoc) => Promise<TaskItem[]>;

/** The include as a block with its run-time loader; a target that is no template is loaded now. */
export async function loadInclude(p: IncludeParts, t: Record<string, unknown>, ctx: TaskLoadContext, loadTask: LoadTaskFn, loadTaskList: LoadListFn): Promise<BlockDef> {
  const args = includeArgs(p);
  const targetKey = p.module === 'include_tasks' ? 'file' : 'name';
  const target = args[targetKey];
  if (typeof target !== 'string' || !target.trim()) {
    throw new BadInputError(p.module === 'include_tasks' ? `No file specified for ${p.module}` : `${p.module} needs 'name: <role>'`, p.loc);
  }
  const from = fromFiles(args, p.loc);
  const options = includeRoleOptions(args, p.loc);
  const apply = await applyBlock(args.apply, p, ctx, loadTask);
  const wrap = (tasks: TaskItem[]): TaskItem[] => {
    if (!apply) return tasks;
    inheritInto(tasks, apply);
    return [{ ...apply, block: tasks, rescue: [], always: [] }];
  };
  // Under a when, a loop or a rescue, an include of a file already on the way here may end (a retry loop).
  const mayEnd = Boolean(ctx.conditional) || p.task.when.length > 0 || p.task.loop !== undefined;
  const fileCtx = mayEnd ? { ...ctx, conditional: true } : ctx;
  const cache = new Map<string, Promise<IncludeLoaded>>();
  // rolespec_validate as rendered for the host (a literal one, or true before any host renders a template).
  const load = (name: string, rendered: RoleFromFiles, at: SourceLoc, validate = options.validate !== false) => {
    const key = `${name}\0${JSON.stringify(rendered)}\0${validate}`;
    let hit = cache.get(key);
    if (!hit) {
      hit = p.module === 'include_tasks' ? loadTaskFile(name, fileCtx, at, loadTaskList) : loadRoleTasks(name, rendered, validate, p.task.vars, ctx, at);
      hit = hit.then((r) => ({ ...r, tasks: wrap(r.tasks) }));
      cache.set(key, hit);
    }
    return hit;
  };
  const spec: IncludeSpec = {
    action: p.module, task: p.task, target, from, load, loopWith: p.task.loopWith, args: resultArgs(p, args),
    public: options.public, allowDuplicates: options.allowDuplicates, validate: options.validate,
  };
  const fixed = !isTemplated(target) && !Object.values(from).some((f) => f !== undefined && isTemplated(f));
  // A file that includes itself under a condition (kubespray's retry loops in a rescue) is loaded when the
  // run reaches it, level by level; unconditionally it could only recurse forever: refused now.
  const deferred = p.module === 'include_tasks' && fixed && mayEnd && includesItself(target, ctx);
  const preloaded = fixed && !deferred ? await preload(() => load(target, from, p.loc), p, ctx, mayEnd) : undefined;
  // Handlers of a role included by a fixed name are known now; the runner adds the others when loaded.
  if (preloaded) ctx.extraHandlers.push(...preloaded.handlers);
  return {
    kind: 'block', name: p.task.name, when: [], tags: p.task.tags, vars: p.task.vars,
    role: p.task.role, baseDir: p.task.baseDir, loc: p.task.loc,
    block: preloaded?.tasks ?? [], rescue: [], always: [], include: p.written, dynamic: spec,
  };
}

/**
 * A target that fails to load is left to the run, as Ansible loads every dynamic include only when a host
 * reaches it (--syntax-check never reads it): the play runs where it is not reached, and a host that reaches
 * it fails (a module that cannot be resolved ends the run, as Ansible's strategy re-raises it). Under a when,
 * a loop or a rescue, an unknown module is usual (another OS family's file) and passes quietly; anything
 * else is told as a warning now. A file including itself with nothing to end it is refused: it never ends.
 */
async function preload(load: () => Promise<IncludeLoaded>, p: IncludeParts, ctx: TaskLoadContext, mayEnd: boolean): Promise<IncludeLoaded | undefined> {
  try {
    return await load();
  } catch (err) {
    if (!(err instanceof BadInputError) || err instanceof IncludeRecursionError) throw err;
    if (!(mayEnd && err.message.includes("couldn't resolve module/action"))) {
      ctx.warn?.(`${formatLoc(p.loc)}: ${p.written} is loaded when a host reaches it, and will fail there: ${err.message}`);
    }
    return undefined;
  }
}

/** A task file that includes itself with no when or rescue to end it: refused at load, never left to the run. */
class IncludeRecursionError extends IncludeTargetError {}

/** Whether the task file `rel` is already being included (or imported) on the way here. */
function includesItself(rel: string, ctx: TaskLoadContext): boolean {
  const file = taskFilePath(rel, { file: ctx.file, baseDir: ctx.baseDir, inRole: Boolean(ctx.role) });
  return (ctx.importChain ?? [{ file: ctx.file }]).some((c) => c.file === file);
}

/** Far deeper than any real retry loop; a file that includes itself forever stops here with a clear error. */
const MAX_INCLUDE_DEPTH = 100;

async function loadTaskFile(rel: string, ctx: TaskLoadContext, at: SourceLoc, loadTaskList: LoadListFn): Promise<IncludeLoaded> {
  const file = taskFilePath(rel, { file: ctx.file, baseDir: ctx.baseDir, inRole: Boolean(ctx.role) });
  const chain = ctx.importChain ?? [{ file: ctx.file }];
  if (chain.length >= MAX_INCLUDE_DEPTH) {
    throw new IncludeRecursionError(`include_tasks '${rel}' nested ${chain.length} deep (a task file including itself whose when never ends the recursion?)`, at);
  }
  if (!ctx.conditional && chain.some((c) => c.file === file)) {
    const names = [...chain.map((c) => c.file), file].map((f) => path.relative(ctx.baseDir, f) || f);
    throw new IncludeRecursionError(`include_tasks recursion: ${names.join(' -> ')}; a task file including itself needs a when (or a rescue) that ends it`, at);
  }
  const handlers: TaskDef[] = [];
  const raw = await readYamlFile(file).catch((err: unknown) => {
    if (err instanceof BadInputError && err.loc?.line === undefined) throw new IncludeTargetError(`include_tasks '${rel}': ${err.message}`, at, err);
    throw err;
  });
  const tasks = await loadTaskList(raw, { ...ctx, file, extraHandlers: handlers, importChain: [...chain, { file, loc: at }] }, file);
  return { tasks, handlers };
}

/** IncludeRole.get_block_list: the role with the include's vars as its vars (`ri.vars |= self.vars`), loaded anew each time. */
async function loadRoleTasks(name: string, from: RoleFromFiles, validate: boolean, vars: Vars, ctx: TaskLoadContext, at: SourceLoc): Promise<IncludeLoaded> {
  const role = await ctx.loadRole(name, {}, at, { from: definedFrom(from), duplicates: true, validate });
  return { tasks: role.tasks, handlers: role.handlers, role: role.ctx, roleKey: `${role.key}\0${JSON.stringify(vars)}` };
}

/** What a from-file names, without the keys left unset (they default to main). */
function definedFrom(from: RoleFromFiles): RoleFromFiles {
  return Object.fromEntries(Object.entries(from).filter(([, v]) => v !== undefined)) as RoleFromFiles;
}

