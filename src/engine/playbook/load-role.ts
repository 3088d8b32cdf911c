// Roles in Ansible's shape: roles/<name>/{tasks,handlers,defaults,vars,meta}/main.yml.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BadInputError, type SourceLoc } from '../../errors.js';
import { locOf, locOfItem, readYamlFile } from '../yaml-source.js';
import { describe, keyLoc, listKeyword } from './keyword-types.js';
import { loadTaskList, type LoadedRole, type TaskLoadContext } from './load-tasks.js';
import type { RoleContext, TaskDef, TaskItem, Vars } from './types.js';

export interface RoleLoaderOptions {
  searchPath: string[];
  knownModule(name: string): boolean;
  resolveModule?: TaskLoadContext['resolveModule'];
}

export function findRoleDir(name: string, searchPath: string[]): string | undefined {
  if (path.isAbsolute(name) || name.includes('/')) {
    const dir = path.resolve(name);
    return existsSync(dir) && statSync(dir).isDirectory() ? dir : undefined;
  }
  for (const base of searchPath) {
    const dir = path.join(base, name);
    if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
  }
  return undefined;
}

async function readOptional(dir: string, sub: string, file = 'main'): Promise<unknown> {
  for (const ext of ['.yml', '.yaml', '']) {
    const p = path.join(dir, sub, file + ext);
    if (!existsSync(p)) continue;
    // `tasks/main` may be a folder beside main.yml; `tasks/main.yml` as a folder is a broken role.
    if (statSync(p).isDirectory()) {
      if (ext === '') continue;
      throw new BadInputError(`a role's ${sub}/${file}${ext} must be a file, found a directory`, { file: p });
    }
    return readYamlFile(p);
  }
  return undefined;
}

function fileOf(dir: string, sub: string, file = 'main'): string {
  for (const ext of ['.yml', '.yaml']) {
    const p = path.join(dir, sub, file + ext);
    if (existsSync(p)) return p;
  }
  return path.join(dir, sub, `${file}.yml`);
}

const asVars = (v: unknown, file: string): Vars => {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new BadInputError(`expected a mapping of variables, got ${describe(v)}`, locOf(v) ?? { file, line: 1 });
  return v as Vars;
};

/** Loads a role and, first, its meta dependencies. `seen` keeps a role from running twice with the same params. */
export function makeRoleLoader(opts: RoleLoaderOptions) {
  const seen = new Set<string>();
  const load = async (name: string, params: Vars, loc: SourceLoc, tasksFrom?: string, stack: string[] = [], duplicates = false): Promise<LoadedRole> => {
    const dir = findRoleDir(name, opts.searchPath);
    if (!dir) {
      throw new BadInputError(`the role '${name}' was not found in: ${opts.searchPath.join(', ')}`, loc);
    }
    if (stack.includes(dir)) throw new BadInputError(`role dependency cycle: ${[...stack, dir].map((d) => path.basename(d)).join(' -> ')}`, loc);
    const ctx: RoleContext = {
      name: path.basename(dir),
      dir,
      defaults: asVars(await readOptional(dir, 'defaults'), fileOf(dir, 'defaults')),
      vars: asVars(await readOptional(dir, 'vars'), fileOf(dir, 'vars')),
      params,
    };
    const tasks: TaskItem[] = [];
    const handlers: TaskDef[] = [];
    const meta = await readOptional(dir, 'meta');
    const metaFile = fileOf(dir, 'meta');
    if (meta !== undefined && meta !== null && (typeof meta !== 'object' || Array.isArray(meta))) {
      throw new BadInputError(`a role's meta/main.yml must be a mapping (dependencies:, galaxy_info:), got ${describe(meta)}`, locOf(meta) ?? { file: metaFile, line: 1 });
    }
    const deps = meta ? listKeyword(meta as Vars, 'dependencies', { file: metaFile, line: 1 }) : [];
    for (const [i, dep] of deps.entries()) {
      const depLoc = locOfItem(deps, i) ?? keyLoc(meta as Vars, 'dependencies', { file: metaFile, line: 1 });
      if (typeof dep !== 'string' && (!dep || typeof dep !== 'object' || Array.isArray(dep))) throw new BadInputError(`a dependency must be a role name or a mapping with role:, got ${describe(dep)}`, depLoc);
      const depName = typeof dep === 'string' ? dep : String((dep as Vars).role ?? (dep as Vars).name ?? '');
      const depParams = typeof dep === 'object' && dep ? { ...(dep as Vars) } : {};
      delete depParams.role;
      delete depParams.name;
      const d = await load(depName, (depParams.vars as Vars) ?? depParams, depLoc, undefined, [...stack, dir]);
      tasks.push(...d.tasks);
      handlers.push(...d.handlers);
    }
    const key = `${dir}\0${tasksFrom ?? ''}\0${JSON.stringify(params)}`;
    // include_role runs the role each time it is reached (a loop's every item): no dedup there.
    if (seen.has(key) && !duplicates) return { ctx, tasks, handlers };
    seen.add(key);
    const tctx: TaskLoadContext = {
      file: fileOf(dir, 'tasks', tasksFrom ?? 'main'),
      baseDir: dir,
      role: ctx,
      knownModule: opts.knownModule,
      resolveModule: opts.resolveModule,
      loadRole: (n, p, l, tf, dup) => load(n, p, l, tf, [...stack, dir], dup),
      extraHandlers: handlers,
    };
    const rawTasks = await readOptional(dir, 'tasks', tasksFrom ?? 'main');
    if (tasksFrom && rawTasks === undefined) throw new BadInputError(`role '${name}' has no tasks/${tasksFrom}.yml`, loc);
    tasks.push(...(await loadTaskList(rawTasks, tctx, 'tasks')));
    const rawHandlers = await readOptional(dir, 'handlers');
    const hctx = { ...tctx, file: fileOf(dir, 'handlers') };
    for (const h of await loadTaskList(rawHandlers, hctx, 'handlers')) {
      if (h.kind !== 'task') throw new BadInputError('handlers cannot be blocks', h.loc);
      handlers.push(h);
    }
    return { ctx, tasks, handlers };
  };
  return load;
}
