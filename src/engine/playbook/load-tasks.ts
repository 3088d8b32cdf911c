// Turns a YAML task list into TaskDef/BlockDef items: import_role/import_tasks expanded statically,
// include_tasks/include_role kept as dynamic includes (load-include.ts) the runner resolves per host.
import { searchedModuleName, withCollections } from './collection-search.js';
import path from 'node:path';
import { BadInputError, type SourceLoc } from '../../errors.js';
import { locOf, locOfItem, readYamlFile } from '../yaml-source.js';
import { TASK_KEYWORDS, FREE_FORM_MODULES, shortModuleName } from './keywords.js';
import { internalAction, taskAction } from './action-form.js';
import { connectionKeyword, keywordBoolean } from './keyword-values.js';
import { parseKeyValueArgs, splitFreeForm } from './kv-args.js';
import { loopKeyword } from './loop-keyword.js';
import { boolKeyword, describe, flagKeyword, keyLoc, mapKeyword, registerKeyword, secondsKeyword, stringKeyword, varsKeyword } from './keyword-types.js';
import { inheritInto, inheritIntoHandlers } from './inherit.js';
import { moduleDefaultsKeyword } from './module-defaults.js';
import { checkIncludeKeywords, loadInclude } from './load-include.js';
import { checkKeywordSupport, diffKeyword, throttleKeyword } from './keyword-support.js';
import { fromFiles, importRoleOptions } from './role-include-args.js';
import type { BlockDef, TaskDef, TaskItem, Vars } from './types.js';
import { taskFilePath } from './task-file-path.js';
import type { TaskLoadContext } from './load-context.js';

export type { LoadedRole, RoleLoadOptions, TaskLoadContext } from './load-context.js';

// IncludeRole.VALID_ARGS less apply and public, which only include_role takes.
const IMPORT_ROLE_ARGS = new Set(['name', 'role', 'tasks_from', 'vars_from', 'defaults_from', 'handlers_from', 'allow_duplicates', 'rolespec_validate']);
const INCLUDES = new Set(['import_role', 'include_role', 'import_tasks', 'include_tasks']);

const asList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const asStrings = (v: unknown): string[] =>
  asList(v).flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter(Boolean) : [String(x)]));

/** An import is expanded once, before the run: Ansible refuses a loop on it too. */
function refuseImportLoop(t: Record<string, unknown>, module: string, loc: SourceLoc): void {
  const key = Object.keys(t).find((k) => k === 'loop' || k.startsWith('with_'));
  if (key) throw new BadInputError(`'${key}' on ${module} is not supported: an import is static; use ${module.replace('import', 'include')} to loop`, locOf(t, key) ?? loc);
}

/** A role's handlers run outside its block, so a role-level check_mode is copied onto them (a handler's own wins). */
export function inheritCheckMode(handlers: TaskDef[], checkMode: boolean | string | undefined): TaskDef[] {
  if (checkMode !== undefined) for (const h of handlers) h.checkMode ??= checkMode;
  return handlers;
}

/** `at`: where the list was given (its keyword), for a value that has no position of its own. */
export async function loadTaskList(raw: unknown, ctx: TaskLoadContext, where: string, at?: SourceLoc): Promise<TaskItem[]> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    throw new BadInputError(`${where} must be a list of tasks, got ${describe(raw)}`, locOf(raw) ?? at ?? { file: ctx.file, line: 1 });
  }
  const out: TaskItem[] = [];
  for (let i = 0; i < raw.length; i++) out.push(...(await loadTask(raw[i], ctx, locOfItem(raw, i))));
  return out;
}

/** The keywords every task, block and import carries. */
function commonKeywords(t: Record<string, unknown>, ctx: TaskLoadContext, loc: SourceLoc) {
  return {
    name: t.name === undefined ? undefined : String(t.name),
    when: asList(t.when),
    tags: asStrings(t.tags),
    vars: (varsKeyword(t, 'block' in t ? 'Block' : 'Task', loc) as Vars) ?? {},
    become: boolKeyword(t, 'become', loc),
    becomeUser: t.become_user === undefined ? undefined : String(t.become_user),
    ignoreErrors: t.ignore_errors,
    ignoreUnreachable: flagKeyword(t, 'ignore_unreachable', loc),
    checkMode: keywordBoolean(t.check_mode, 'check_mode', locOf(t, 'check_mode') ?? loc),
    noLog: boolKeyword(t, 'no_log', loc),
    delegateTo: t.delegate_to === undefined ? undefined : String(t.delegate_to),
    delegateFacts: boolKeyword(t, 'delegate_facts', loc),
    anyErrorsFatal: boolKeyword(t, 'any_errors_fatal', loc),
    remoteUser: stringKeyword(t, 'remote_user', loc),
    diff: diffKeyword(t, loc),
    throttle: throttleKeyword(t, loc),
    timeout: secondsKeyword(t, 'timeout', loc),
    runOnce: boolKeyword(t, 'run_once', loc),
    connection: connectionKeyword(t.connection, locOf(t, 'connection') ?? loc),
    environment: t.environment ?? undefined,
    moduleDefaults: moduleDefaultsKeyword(t, loc),
    role: ctx.role,
    baseDir: ctx.baseDir,
    loc,
  };
}
type Common = ReturnType<typeof commonKeywords>;

async function loadTask(raw: unknown, ctx: TaskLoadContext, at?: SourceLoc): Promise<TaskItem[]> {
  const loc = locOf(raw) ?? at ?? { file: ctx.file };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new BadInputError(`a task must be a mapping (name, module, keywords), got ${JSON.stringify(raw)}`, loc);
  }
  const t = raw as Record<string, unknown>;
  checkKeywordSupport(t, loc);
  ctx = withCollections(ctx, t);
  const common = commonKeywords(t, ctx, loc);
  const moduleKeys = Object.keys(t).filter((k) => !TASK_KEYWORDS.has(k) && !k.startsWith('with_'));
  if ('block' in t) return [await loadBlock(t, moduleKeys, common, ctx)];
  const action = taskAction(t, moduleKeys, loc, common.name);
  const moduleKey = action.written;
  const include = internalAction(moduleKey);
  const module = shortModuleName(moduleKey);
  if (INCLUDES.has(module) && include !== module) {
    // Ansible's includes are its own actions: only bare, ansible.builtin. or ansible.legacy. names are them.
    throw new BadInputError(`couldn't resolve module/action '${moduleKey}': ${module} is ansible.builtin.${module} (or ansible.legacy.${module})`, action.loc);
  }
  const mloc = action.loc;
  const rawArgs = action.rawArgs;
  if (action.delegateTo) common.delegateTo = action.delegateTo;

  if (module === 'include_role' || module === 'include_tasks') {
    checkIncludeKeywords(t, module, moduleKey, loc);
    const { loop, loopWith } = loopKeyword(t, loc);
    const lc = mapKeyword(t, 'loop_control', loc) ?? {};
    const task: TaskDef = {
      ...common, kind: 'task', module, written: moduleKey, args: {}, loop, loopWith,
      loopLabel: lc.label === undefined ? undefined : String(lc.label), loopVar: lc.loop_var === undefined ? 'item' : String(lc.loop_var),
      notify: [], retries: 0, delay: 0, listen: [], register: registerKeyword(t, loc),
      // Ansible accepts timeout on an include and ignores it: the include returns before the task
      // timer starts, and included tasks do not inherit from a dynamic include (Block._get_parent_attribute).
      timeout: undefined,
    };
    return [await loadInclude({ module, written: moduleKey, rawArgs, task, loc: mloc }, t, ctx, loadTask, loadTaskList)];
  }
  // Imports are static: expanded here, wrapped in a block that carries the task's keywords.
  if (module === 'import_role' || module === 'import_tasks') refuseImportLoop(t, module, loc);
  if (module === 'import_role') return [await importRole(t, rawArgs, mloc, common, ctx)];
  if (module === 'import_tasks') return [await importTasks(rawArgs, mloc, common, ctx)];
  const { runAs, native, added } = moduleToRun(searchedModuleName(moduleKey, ctx), module, mloc, ctx);
  let args = moduleArgs(rawArgs, module, moduleKey, mloc, native);
  if (added) args = { ...args, ...added };
  if (action.extraArgs) args = { ...action.extraArgs, ...args };
  if (t.args && typeof t.args === 'object') args = { ...(t.args as Vars), ...args };
  return [moduleTask(t, common, runAs, moduleKey, args)];
}

/** The context for what a block or import with `when` holds: its includes are conditional. */
const underWhen = (ctx: TaskLoadContext, common: Common): TaskLoadContext => (common.when.length ? { ...ctx, conditional: true } : ctx);

async function loadBlock(t: Record<string, unknown>, moduleKeys: string[], common: Common, ctx: TaskLoadContext): Promise<BlockDef> {
  const loc = common.loc;
  // Ansible: a block holds tasks; a module beside `block:` is an error, not a task.
  if (moduleKeys.length) throw new BadInputError(`'${moduleKeys[0]}' is not a valid attribute for a block (a task with block: cannot also have a module)`, keyLoc(t, moduleKeys[0]!, loc));
  const block: BlockDef = {
    ...common,
    kind: 'block',
    block: await loadTaskList(t.block, underWhen(ctx, common), 'block', keyLoc(t, 'block', loc)),
    rescue: await loadTaskList(t.rescue, { ...ctx, conditional: true }, 'rescue', keyLoc(t, 'rescue', loc)),
    always: await loadTaskList(t.always, underWhen(ctx, common), 'always', keyLoc(t, 'always', loc)),
  };
  inheritInto([...block.block, ...block.rescue, ...block.always], block);
  return block;
}

async function importRole(t: Record<string, unknown>, rawArgs: unknown, mloc: SourceLoc, common: Common, ctx: TaskLoadContext): Promise<BlockDef> {
  if (typeof rawArgs !== 'object' || rawArgs === null || Array.isArray(rawArgs)) throw new BadInputError(`import_role needs 'name: <role>'`, mloc);
  const a = rawArgs as Record<string, unknown>;
  const bad = Object.keys(a).filter((k) => !IMPORT_ROLE_ARGS.has(k));
  if (bad.length) throw new BadInputError(`Invalid options for import_role: ${bad.join(',')}`, locOf(a, bad[0]!) ?? mloc);
  const name = a.name ?? a.role;
  if (typeof name !== 'string') throw new BadInputError(`'name' is a required field for import_role.`, mloc);
  const from = fromFiles(a, mloc);
  const templated = Object.entries(from).find(([, v]) => typeof v === 'string' && /{{|{%/.test(v));
  if (templated) throw new BadInputError(`import_role: ${templated[0]}_from is a template; an import is loaded before the run: use include_role`, locOf(a, `${templated[0]}_from`) ?? mloc);
  const options = importRoleOptions(a, mloc);
  const role = await ctx.loadRole(name, (t.vars as Vars) ?? {}, mloc, { from, duplicates: options.allowDuplicates, validate: options.validate });
  // A statically imported role joins the play's roles (IncludeRole.get_block_list): its vars are public.
  ctx.publicRoles?.push(role.ctx);
  ctx.extraHandlers.push(...inheritIntoHandlers(inheritCheckMode(role.handlers, common.checkMode), common));
  inheritInto(role.tasks, common);
  return { ...common, vars: {}, kind: 'block', block: role.tasks, rescue: [], always: [], ...(role.listed ? { listed: role.listed } : {}) };
}

async function importTasks(rawArgs: unknown, mloc: SourceLoc, common: Common, ctx: TaskLoadContext): Promise<BlockDef> {
  const rel = typeof rawArgs === 'string' ? rawArgs : String((rawArgs as Record<string, unknown>)?.file ?? '');
  if (!rel) throw new BadInputError(`import_tasks needs a file name`, mloc);
  const file = taskFilePath(rel, { file: ctx.file, baseDir: ctx.baseDir, inRole: Boolean(ctx.role) });
  const chain = ctx.importChain ?? [{ file: ctx.file }];
  if (chain.some((c) => c.file === file)) {
    const names = [...chain.map((c) => c.file), file].map((f) => path.relative(ctx.baseDir, f) || f);
    throw new BadInputError(`import_tasks recursion: ${names.join(' -> ')}; a task file cannot include itself (hostwire expands imports before the run)`, mloc);
  }
  const list = await loadTaskList(await readYamlFile(file), { ...underWhen(ctx, common), file, importChain: [...chain, { file, loc: mloc }] }, file);
  inheritInto(list, common);
  return { ...common, kind: 'block', block: list, rescue: [], always: [], imported: true };
}

/** The module a task runs: native, or found by the fallback - also a library/ module that shadows a native name (src/fallback/shadow.ts). */
function moduleToRun(moduleKey: string, module: string, mloc: SourceLoc, ctx: TaskLoadContext): { runAs: string; native: boolean; added?: Vars } {
  if (ctx.knownModule(moduleKey)) {
    const s = ctx.resolveModule?.shadowed?.(moduleKey, ctx.role?.dir);
    for (const w of s?.warnings ?? []) ctx.warn?.(`${mloc.file}:${mloc.line ?? 0}: ${w}`);
    if (s?.error !== undefined) throw new BadInputError(s.error, mloc);
    return s?.name === undefined ? { runAs: module, native: true } : { runAs: s.name, native: false, added: s.args };
  }
  const r = ctx.resolveModule?.(moduleKey, ctx.role?.dir);
  if (!r || 'error' in r) throw new BadInputError(r?.error ?? `couldn't resolve module/action '${moduleKey}'. This often indicates a misspelling or a module hostwire does not ship`, mloc);
  return { runAs: r.name, native: false };
}

/** A module's arguments: a mapping, a key=value string, or a free-form command line (`native`: hostwire has the module). */
function moduleArgs(rawArgs: unknown, module: string, moduleKey: string, mloc: SourceLoc, native: boolean): Vars {
  if (typeof rawArgs === 'string') {
    if (FREE_FORM_MODULES.has(module)) {
      const ff = splitFreeForm(rawArgs);
      return { _raw_params: ff.raw, ...ff.options };
    }
    // An Ansible module run by the fallback: text that is not key=value reaches it as _raw_params (parse_kv).
    if (!native && !/^\s*[A-Za-z_][\w.]*=/.test(rawArgs)) return { _raw_params: rawArgs };
    return parseKeyValueArgs(rawArgs, mloc);
  }
  if (rawArgs === null || rawArgs === undefined) return {};
  if (typeof rawArgs === 'object' && !Array.isArray(rawArgs)) return { ...(rawArgs as Vars) };
  throw new BadInputError(`arguments of '${moduleKey}' must be a mapping or a key=value string, got ${JSON.stringify(rawArgs)}`, mloc);
}

function moduleTask(t: Record<string, unknown>, common: Common, runAs: string, moduleKey: string, args: Vars): TaskDef {
  const loc = common.loc;
  const { loop, loopWith } = loopKeyword(t, loc);
  const lc = mapKeyword(t, 'loop_control', loc) ?? {};
  const task: TaskDef = {
    ...common,
    kind: 'task',
    module: runAs,
    written: moduleKey,
    args,
    loop,
    loopWith,
    loopLabel: lc.label === undefined ? undefined : String(lc.label),
    loopVar: lc.loop_var === undefined ? 'item' : String(lc.loop_var),
    register: registerKeyword(t, loc),
    notify: asList(t.notify).map(String),
    changedWhen: t.changed_when,
    failedWhen: t.failed_when,
    until: t.until,
    retries: secondsKeyword(t, 'retries', loc) ?? 3,
    delay: secondsKeyword(t, 'delay', loc) ?? 5,
    listen: asList(t.listen).map(String),
    async: secondsKeyword(t, 'async', loc),
    poll: secondsKeyword(t, 'poll', loc),
  };
  if (task.until !== undefined && t.retries === undefined) task.retries = 3;
  return task;
}
