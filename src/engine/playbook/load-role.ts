// Roles in Ansible's shape: roles/<name>/{tasks,handlers,defaults,vars,meta}/main.yml, or the files
// include_role/import_role name with tasks_from, vars_from, defaults_from and handlers_from.
import { handlersOf } from './handler-imports.js';
import { statSync } from 'node:fs';
import path from 'node:path';
import { BadInputError, IncludeTargetError, type SourceLoc } from '../../errors.js';
import { roleCollections } from './collection-search.js';
import { locOf, locOfItem } from '../yaml-source.js';
import { describe, keyLoc, listKeyword } from './keyword-types.js';
import { loadTaskList, type LoadedRole, type RoleLoadOptions, type TaskLoadContext } from './load-tasks.js';
import type { RoleFromFiles } from './load-context.js';
import { asRoleVars, readRoleFile, roleFilePath } from './role-files.js';
import { argumentSpecTask } from './role-argspec.js';
import { isFoundRole, resolveRolePath, type FoundRole, type RoleSearch } from './role-path.js';
import type { RoleContext, TaskDef, TaskItem, Vars } from './types.js';
import { roleEntry, roleEntryBlock } from './role-entry.js';

export interface RoleLoaderOptions {
  search: RoleSearch;
  knownModule(name: string): boolean;
  resolveModule?: TaskLoadContext['resolveModule'];
  warn?: TaskLoadContext['warn'];
}

/** The role a name leads to (role-path.ts), or Ansible's error naming every place looked. */
function findRole(name: string, search: RoleSearch, loc: SourceLoc, ownerDir?: string): FoundRole {
  const found = resolveRolePath(name, search, ownerDir);
  if (!isFoundRole(found)) throw new IncludeTargetError(`the role '${name}' was not found in ${found.looked.join(':')}`, loc);
  let isDir = false;
  try {
    isDir = statSync(found.dir).isDirectory();
  } catch {
    // unreadable: said below
  }
  if (!isDir) throw new BadInputError(`the role '${name}' names ${found.dir}, which is not a directory (a role is a folder with tasks/, defaults/, meta/ ...)`, loc);
  return found;
}

async function readMeta(dir: string): Promise<Vars> {
  const meta = await readRoleFile(dir, 'meta');
  if (meta !== undefined && meta !== null && (typeof meta !== 'object' || Array.isArray(meta))) {
    throw new BadInputError(`a role's meta/main.yml must be a mapping (dependencies:, galaxy_info:), got ${describe(meta)}`, locOf(meta) ?? { file: roleFilePath(dir, 'meta'), line: 1 });
  }
  return (meta as Vars | null) ?? {};
}

/** meta `allow_duplicates: true`: the role runs again when listed again with the same params. */
function metaAllowsDuplicates(meta: Vars, file: string): boolean {
  const v = meta.allow_duplicates;
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  const w = String(v).toLowerCase();
  if (['yes', 'true', 'on', '1'].includes(w)) return true;
  if (['no', 'false', 'off', '0'].includes(w)) return false;
  throw new BadInputError(`allow_duplicates must be a boolean, got ${JSON.stringify(v)}`, keyLoc(meta, 'allow_duplicates', { file, line: 1 }));
}

/** Loads a role and, first, its meta dependencies. `seen` keeps a role from running twice with the same params. */
export function makeRoleLoader(opts: RoleLoaderOptions) {
  const seen = new Set<string>();
  // Roles import_role brings in, anywhere in the play: public, as Ansible appends them to play.roles.
  const publicRoles: RoleContext[] = [];
  // ownerDir: the role whose meta/main.yml lists this one (its folder's parent is searched too).
  const load = async (name: string, params: Vars, loc: SourceLoc, lo: RoleLoadOptions = {}, stack: string[] = [], ownerDir?: string): Promise<LoadedRole> => {
    const found = findRole(name, opts.search, loc, ownerDir);
    const dir = found.dir;
    // Ansible adds a loaded role's library/ and action_plugins/ to the plugin paths for the rest of the run,
    // so a module in one role's library/ serves tasks of other roles (openshift-ansible's lib_utils).
    opts.resolveModule?.noteRole?.(dir);
    if (stack.includes(dir)) throw new BadInputError(`role dependency cycle: ${[...stack, dir].map((d) => path.basename(d)).join(' -> ')}`, loc);
    const from = lo.from ?? {};
    const ctx: RoleContext = {
      name: found.name,
      ...(found.collection ? { collection: found.collection } : {}),
      dir,
      defaults: asRoleVars(await readRoleFile(dir, 'defaults', from.defaults, { allowDir: true, at: loc }), roleFilePath(dir, 'defaults', from.defaults)),
      vars: asRoleVars(await readRoleFile(dir, 'vars', from.vars, { allowDir: true, at: loc }), roleFilePath(dir, 'vars', from.vars)),
      params,
      dependencies: [],
    };
    const tasks: TaskItem[] = [];
    const handlers: TaskDef[] = [];
    const meta = await readMeta(dir);
    const metaFile = roleFilePath(dir, 'meta');
    const deps = listKeyword(meta, 'dependencies', { file: metaFile, line: 1 });
    for (const [i, dep] of deps.entries()) {
      const depLoc = locOfItem(deps, i) ?? keyLoc(meta, 'dependencies', { file: metaFile, line: 1 });
      if (typeof dep !== 'string' && (!dep || typeof dep !== 'object' || Array.isArray(dep))) throw new BadInputError(`a dependency must be a role name or a mapping with role:, got ${describe(dep)}`, depLoc);
      const spec = typeof dep === 'string' ? { role: dep } : (dep as Vars);
      const entry = roleEntry(spec, depLoc);
      const d = await load(entry.name, entry.params, depLoc, { identity: entry.identity }, [...stack, dir], dir);
      // The dependency's own when/tags/become... apply to its tasks and handlers, as a play's roles: entry.
      const wrapped = roleEntryBlock(spec, depLoc, entry.params, d);
      ctx.dependencies!.push(d.ctx);
      tasks.push(wrapped.block);
      handlers.push(...wrapped.handlers);
    }
    const key = `${dir}\0${JSON.stringify(from)}\0${JSON.stringify(params)}\0${lo.identity ?? ''}`;
    // include_role runs the role each time it is reached (a loop's every item): no dedup there.
    const again = seen.has(key) && !lo.duplicates && !metaAllowsDuplicates(meta, metaFile);
    seen.add(key);
    const context = (sink: TaskDef[], pub: RoleContext[]): TaskLoadContext => ({
      file: roleFilePath(dir, 'tasks', from.tasks), baseDir: dir, role: ctx, knownModule: opts.knownModule, resolveModule: opts.resolveModule,
      loadRole: (n, p, l, o) => load(n, p, l, o, [...stack, dir]), extraHandlers: sink, publicRoles: pub, warn: opts.warn,
      collections: roleCollections(found.collection, meta),
    });
    // A role met again is not run again, yet ansible-playbook --list-tasks lists it each time (Role.compile
    // has no dedup; the strategy skips it): its tasks are kept for the listing only, their handlers dropped.
    if (again) return { ctx, key, tasks, handlers, listed: await ownTasks(dir, from, params, lo.validate, loc, name, context([], [])) };
    const tctx = context(handlers, publicRoles);
    tasks.push(...(await ownTasks(dir, from, params, lo.validate, loc, name, tctx)));
    const rawHandlers = await readRoleFile(dir, 'handlers', from.handlers, { at: loc });
    const hctx = { ...tctx, file: roleFilePath(dir, 'handlers', from.handlers) };
    handlers.push(...handlersOf(await loadTaskList(rawHandlers, hctx, 'handlers')));
    return { ctx, key, tasks, handlers };
  };
  return Object.assign(load, { publicRoles });
}

/** The role's own tasks: the check of its argument spec (rolespec_validate), then tasks/<from>.yml. */
async function ownTasks(dir: string, from: RoleFromFiles, params: Vars, validate: boolean | undefined, loc: SourceLoc, name: string, tctx: TaskLoadContext): Promise<TaskItem[]> {
  const rawTasks = await readRoleFile(dir, 'tasks', from.tasks, { at: loc });
  if (from.tasks && rawTasks === undefined) throw new BadInputError(`role '${name}' has no tasks/${from.tasks}.yml`, loc);
  const out: TaskItem[] = validate !== false ? await argumentSpecTask(dir, from.tasks ?? 'main', params, tctx) : [];
  out.push(...(await loadTaskList(rawTasks, tctx, 'tasks')));
  return out;
}
