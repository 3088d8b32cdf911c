// Reads a playbook file into PlayDefs: roles expanded (dependencies first), handlers collected,
// every task remembering file:line for error messages.
import { handlersOf } from './handler-imports.js';
import { factIdsFor } from '../../facts/subsets.js';
import path from 'node:path';
import { BadInputError } from '../../errors.js';
import { locOf, locOfItem, readYamlFile } from '../yaml-source.js';
import { connectionKeyword, keywordBoolean } from './keyword-values.js';
import { PLAY_KEYWORDS, ROLE_ENTRY_KEYWORDS } from './keywords.js';
import { inheritCheckMode, loadTaskList, type TaskLoadContext } from './load-tasks.js';
import type { ShadowedModule } from './load-context.js';
import { makeRoleLoader } from './load-role.js';
import { roleEntry, roleEntryBlock } from './role-entry.js';
import type { RoleSearch } from './role-path.js';
import { inheritInto, inheritIntoHandlers, type Inherited } from './inherit.js';
import { moduleDefaultsKeyword } from './module-defaults.js';
import { internalAction } from './action-form.js';
import { boolKeyword, describe, flagKeyword, keyLoc, listKeyword, mapKeyword, secondsKeyword, stringKeyword, varsKeyword } from './keyword-types.js';
import { checkPlayOnlyKeywords, orderKeyword } from './play-order.js';
import { checkKeywordSupport, diffKeyword, throttleKeyword } from './keyword-support.js';
import type { SourceLoc } from '../../errors.js';
import type { PlayDef, Playbook, RoleContext, TaskDef, TaskItem, Vars } from './types.js';

type ModuleFrom = { playbookDir: string; roleDir?: string; importedBy?: string[] };

export interface LoadPlaybookOptions {
  /** The roles path: --roles-path, then ANSIBLE_ROLES_PATH / ansible.cfg roles_path (or Ansible's default). */
  rolesPath?: string[];
  /** Installed collection roots, for `ns.coll.role` names (asked only when such a name is met). */
  collectionRoots?(): string[];
  knownModule(name: string): boolean;
  /** Modules hostwire has no native version of, found from the playbook's directory (src/fallback). */
  resolveModule?: ((written: string, from: ModuleFrom) => { name: string } | { error: string }) & {
    noteRole?(dir: string): void;
    shadowed?(written: string, from: ModuleFrom): ShadowedModule;
    inCollection?(collection: string, name: string): boolean;
  };
  /** What loads but will fail when reached (a dynamic include whose file has an error): told, not refused. */
  onWarning?(message: string): void;
}

export async function loadPlaybook(file: string, opts: LoadPlaybookOptions, chain: { file: string; loc?: SourceLoc }[] = []): Promise<Playbook> {
  const abs = path.resolve(file);
  if (chain.some((c) => c.file === abs)) {
    const names = [...chain.map((c) => c.file), abs].map((f) => path.relative(path.dirname(chain[0]!.file), f) || f);
    throw new BadInputError(`import_playbook recursion: ${names.join(' -> ')}; a playbook cannot import itself`, chain[chain.length - 1]!.loc ?? { file: abs });
  }
  const dir = path.dirname(abs);
  const raw = await readYamlFile(abs);
  if (!Array.isArray(raw)) {
    throw new BadInputError('a playbook must be a list of plays (each with hosts: and tasks: or roles:)', locOf(raw) ?? { file: abs, line: 1 });
  }
  const plays: PlayDef[] = [];
  const resolveModule = resolverFrom(dir, opts, chain.map((c) => path.dirname(c.file)));
  for (const [i, rawPlay] of raw.entries()) {
    const search = roleSearch(dir, opts, rawPlay);
    const loadRole = makeRoleLoader({ search, knownModule: opts.knownModule, resolveModule, warn: opts.onWarning });
    const importKey = rawPlay && typeof rawPlay === 'object' ? Object.keys(rawPlay).find((k) => internalAction(k) === 'import_playbook') : undefined;
    if (importKey) {
      const at = locOf(rawPlay, importKey) ?? { file: abs };
      const target = (rawPlay as Vars)[importKey];
      if (typeof target !== 'string' || !target) throw new BadInputError(`import_playbook must name a playbook file, got ${describe(target)}`, at);
      const sub = await loadPlaybook(path.resolve(dir, target), opts, [...chain, { file: abs, loc: at }]).catch((err: unknown) => {
        // A missing or unreadable file: say which import asked for it.
        if (err instanceof BadInputError && err.loc?.line === undefined) throw new BadInputError(`import_playbook '${target}': ${err.message}`, at, err);
        throw err;
      });
      plays.push(...sub.plays.map((play) => applyImportKeywords(play, rawPlay as Vars, at)));
      continue;
    }
    plays.push(await loadPlay(rawPlay, locOfItem(raw, i) ?? { file: abs }, abs, dir, loadRole, opts, resolveModule));
  }
  return { path: abs, dir, plays };
}

/** Where this play's role names are looked up (role-path.ts); ./roles is hostwire's own last resort. */
function roleSearch(playbookDir: string, opts: LoadPlaybookOptions, rawPlay: unknown): RoleSearch {
  const collections = rawPlay && typeof rawPlay === 'object' ? (rawPlay as Vars).collections : undefined;
  return {
    playbookDir,
    rolesPath: opts.rolesPath ?? [],
    collectionRoots: opts.collectionRoots,
    collections: Array.isArray(collections) ? collections.filter((c): c is string => typeof c === 'string') : undefined,
    extraPaths: [path.resolve('roles')],
  };
}

function resolverFrom(playbookDir: string, opts: LoadPlaybookOptions, importedBy: string[]): TaskLoadContext['resolveModule'] {
  const resolve = opts.resolveModule;
  if (!resolve) return undefined;
  return Object.assign((written: string, roleDir?: string) => resolve(written, { playbookDir, roleDir, importedBy }), {
    noteRole: (d: string) => resolve.noteRole?.(d),
    inCollection: (c: string, name: string) => resolve.inCollection?.(c, name) ?? false,
    shadowed: (written: string, roleDir?: string) => resolve.shadowed?.(written, { playbookDir, roleDir, importedBy }) ?? { warnings: [] },
  });
}

/** A play's `user:` is its remote_user, as ansible-core 2.14's Play.preprocess_data maps it (openshift-ansible 3.11 writes it). */
function playUserKeyword(p: Record<string, unknown>, loc: SourceLoc): void {
  if (!('user' in p)) return;
  if ('remote_user' in p) throw new BadInputError("both 'user' and 'remote_user' are set for this play. The use of 'user' is deprecated, and should be removed", locOf(p, 'user') ?? loc);
  p.remote_user = p.user;
  delete p.user;
}

/** A play's keys before anything is loaded: known keywords only, each one hostwire can honour, and hosts:. */
function checkPlayKeys(p: Record<string, unknown>, loc: SourceLoc): void {
  for (const k of Object.keys(p)) {
    if (!PLAY_KEYWORDS.has(k)) throw new BadInputError(`'${k}' is not a valid attribute for a play (expected one of hosts, vars, roles, tasks, handlers, ...)`, locOf(p, k) ?? loc);
  }
  checkKeywordSupport(p, loc);
  checkPlayOnlyKeywords(p, loc);
  if (p.hosts === undefined || p.hosts === null || p.hosts === '') throw new BadInputError("the play has no 'hosts:' (expected a host pattern such as all or a group name)", loc);
}

async function loadPlay(raw: unknown, at: SourceLoc, file: string, dir: string, loadRole: ReturnType<typeof makeRoleLoader>, opts: LoadPlaybookOptions, resolveModule: TaskLoadContext['resolveModule']): Promise<PlayDef> {
  const loc = locOf(raw) ?? at;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BadInputError('a play must be a mapping with hosts:', loc);
  const p = raw as Record<string, unknown>;
  playUserKeyword(p, loc);
  checkPlayKeys(p, loc);
  const extraHandlers: TaskDef[] = [];
  const ctx: TaskLoadContext = { file, baseDir: dir, knownModule: opts.knownModule, resolveModule, loadRole: (n, pr, l, o) => loadRole(n, pr, l, o, []), extraHandlers, publicRoles: loadRole.publicRoles, warn: opts.onWarning, collections: Array.isArray(p.collections) ? p.collections.filter((c): c is string => typeof c === 'string') : undefined };
  const roleTasks: TaskItem[] = [];
  const roles: RoleContext[] = [];
  const roleList = listKeyword(p, 'roles', loc);
  for (const [i, r] of roleList.entries()) {
    const rloc = locOfItem(roleList, i) ?? keyLoc(p, 'roles', loc);
    if (typeof r !== 'string' && (!r || typeof r !== 'object' || Array.isArray(r))) throw new BadInputError(`a roles: entry must be a role name or a mapping with role:, got ${describe(r)}`, rloc);
    const spec = typeof r === 'string' ? { role: r } : (r as Vars);
    const entry = roleEntry(spec, rloc);
    if (!entry.name) throw new BadInputError('a roles: entry needs a role name', rloc);
    const loaded = await loadRole(entry.name, entry.params, locOf(p.roles) ? rloc : loc, { identity: entry.identity });
    const { block, handlers } = roleEntryBlock(spec, rloc, entry.params, loaded);
    roles.push(loaded.ctx);
    extraHandlers.push(...handlers);
    roleTasks.push(block);
  }
  const preTasks = await loadTaskList(p.pre_tasks, ctx, 'pre_tasks', keyLoc(p, 'pre_tasks', loc));
  const tasks = await loadTaskList(p.tasks, ctx, 'tasks', keyLoc(p, 'tasks', loc));
  const postTasks = await loadTaskList(p.post_tasks, ctx, 'post_tasks', keyLoc(p, 'post_tasks', loc));
  const playHandlers = handlersOf(await loadTaskList(p.handlers, ctx, 'handlers', keyLoc(p, 'handlers', loc)));
  // The play's fact gathering is ansible-core's gather_facts action: a library/setup.py would be what it runs.
  if (p.gather_facts !== false) for (const w of resolveModule?.shadowed?.('gather_facts').warnings ?? []) opts.onWarning?.(`${loc.file}:${loc.line ?? 0}: fact gathering: ${w}`);
  // The play's no_log/ignore_errors reach every task and handler that sets neither (nor a block around it).
  const playInherited = { noLog: boolKeyword(p, 'no_log', loc), ignoreErrors: p.ignore_errors ?? undefined, ignoreUnreachable: flagKeyword(p, 'ignore_unreachable', loc), diff: diffKeyword(p, loc), timeout: secondsKeyword(p, 'timeout', loc) };
  for (const list of [preTasks, roleTasks, tasks, postTasks, extraHandlers, playHandlers]) inheritInto(list, playInherited);
  const serial = serialKeyword(p, loc);
  const varsFiles = varsFilesKeyword(p, loc);
  return {
    name: p.name === undefined ? String(p.hosts) : String(p.name),
    hosts: Array.isArray(p.hosts) ? p.hosts.join(',') : String(p.hosts),
    vars: (varsKeyword(p, 'Play', loc) as Vars) ?? {},
    varsFiles,
    preTasks,
    tasks: [...roleTasks, ...tasks],
    postTasks,
    handlers: [...extraHandlers, ...playHandlers],
    gatherFacts: boolKeyword(p, 'gather_facts', loc) ?? true,
    gatherFactsSet: p.gather_facts !== undefined,
    gatherSubset: factIdsFor(p.gather_subset, loc),
    become: boolKeyword(p, 'become', loc),
    becomeUser: p.become_user as string | undefined,
    serial,
    anyErrorsFatal: boolKeyword(p, 'any_errors_fatal', loc) ?? false,
    ...playInherited,
    remoteUser: stringKeyword(p, 'remote_user', loc),
    maxFailPercentage: p.max_fail_percentage === undefined ? undefined : Number(p.max_fail_percentage),
    strategy: 'linear',
    order: orderKeyword(p, loc),
    tags: [p.tags ?? []].flat().map(String),
    checkMode: keywordBoolean(p.check_mode, 'check_mode', locOf(p, 'check_mode') ?? loc),
    connection: connectionKeyword(p.connection, locOf(p, 'connection') ?? loc),
    environment: p.environment ?? undefined,
    moduleDefaults: moduleDefaultsKeyword(p, loc),
    varsPrompt: varsPromptNames(p.vars_prompt, locOf(p, 'vars_prompt') ?? loc),
    runOnce: boolKeyword(p, 'run_once', loc),
    roles: [...roles, ...loadRole.publicRoles],
    baseDir: dir,
    loc,
  };
}

/** serial: a number of hosts, a percentage or a list of them (a template is checked when rendered). */
function serialKeyword(p: Record<string, unknown>, loc: SourceLoc): (number | string)[] {
  const serial = listKeyword(p, 'serial', loc, true) as (number | string)[];
  for (const s of serial) {
    if (typeof s === 'number' ? !Number.isInteger(s) || s < 0 : typeof s !== 'string' || !/^(\d+%?|.*{{.*}}.*)$/.test(s.trim())) {
      throw new BadInputError(`'serial' must be a number of hosts, a percentage such as 30% or a list of them, got ${describe(s)}`, keyLoc(p, 'serial', loc));
    }
  }
  return serial;
}

function varsFilesKeyword(p: Record<string, unknown>, loc: SourceLoc): string[] {
  const varsFiles = listKeyword(p, 'vars_files', loc, true);
  for (const f of varsFiles) if (typeof f !== 'string') throw new BadInputError(`'vars_files' entries must be file names, got ${describe(f)}`, locOf(f) ?? keyLoc(p, 'vars_files', loc));
  return varsFiles as string[];
}

/** vars_prompt entries (a list of {name, prompt, ...}): only their names matter, each must come with -e. */
function varsPromptNames(raw: unknown, loc: SourceLoc): { name: string; loc: SourceLoc }[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new BadInputError('vars_prompt must be a list of {name: ..., prompt: ...}', loc);
  return raw.map((e) => {
    const name = e && typeof e === 'object' ? (e as Vars).name : undefined;
    if (typeof name !== 'string' || !name) throw new BadInputError('a vars_prompt entry needs name:', locOf(e) ?? loc);
    return { name, loc: locOf(e) ?? loc };
  });
}

/** `vars`/`when` (and tags) on import_playbook apply to every imported play, as Ansible's PlaybookInclude does. */
function applyImportKeywords(play: PlayDef, entry: Vars, loc: SourceLoc): PlayDef {
  for (const k of Object.keys(entry)) {
    if (internalAction(k) !== 'import_playbook' && !['name', 'vars', 'when', 'tags'].includes(k)) {
      throw new BadInputError(`'${k}' is not a valid attribute for import_playbook (expected vars, when, tags)`, locOf(entry, k) ?? loc);
    }
  }
  const vars = entry.vars === undefined || entry.vars === null ? {} : entry.vars;
  if (typeof vars !== 'object' || Array.isArray(vars)) throw new BadInputError('vars on import_playbook must be a mapping', locOf(entry, 'vars') ?? loc);
  const when = entry.when === undefined ? [] : [entry.when].flat();
  const tags = [entry.tags ?? []].flat().map(String);
  const wrap = (items: TaskItem[]): TaskItem[] =>
    items.length && when.length ? [{ kind: 'block', when, tags: [], vars: {}, baseDir: play.baseDir, loc, block: items, rescue: [], always: [] }] : items;
  return {
    ...play,
    vars: { ...play.vars, ...(vars as Vars) },
    tags: [...tags, ...play.tags],
    preTasks: wrap(play.preTasks),
    tasks: wrap(play.tasks),
    postTasks: wrap(play.postTasks),
  };
}
