// What loading a task list needs to know: where it is, its role, how to load roles.
import type { SourceLoc } from '../../errors.js';
import type { RoleContext, TaskDef, TaskItem, Vars } from './types.js';

export interface LoadedRole {
  ctx: RoleContext;
  /** Where the role is: the key include_role's allow_duplicates: false compares (dir, files, params). */
  key: string;
  tasks: TaskItem[];
  handlers: TaskDef[];
  /** A role met again (not run again): its own tasks, for --list-tasks only (ansible-playbook lists it each time). */
  listed?: TaskItem[];
}

/** include_role/import_role's tasks_from, vars_from, defaults_from, handlers_from (file names in the role). */
export interface RoleFromFiles {
  tasks?: string;
  vars?: string;
  defaults?: string;
  handlers?: string;
}

export interface RoleLoadOptions {
  from?: RoleFromFiles;
  /** Load it again even when loaded before with the same params (include_role, or meta allow_duplicates). */
  duplicates?: boolean;
  /** rolespec_validate: prepend the check of meta/argument_specs (Ansible's default: true). */
  validate?: boolean;
  /** The entry's when/tags/vars (role-entry.ts): entries that differ in them are different roles, as Role.load's hashed_params. */
  identity?: string;
}

/** A library/ module replacing a native one: the name it runs under and the args its action adds, or why not; what to tell. */
export interface ShadowedModule {
  warnings: string[];
  name?: string;
  error?: string;
  args?: Record<string, unknown>;
}

/** A module hostwire has no native version of (src/fallback): its name to run under, or why not. */
export type ModuleResolver = ((written: string, roleDir?: string) => { name: string } | { error: string }) & {
  /** A role was loaded: its library/ and action_plugins/ are searched from now on. */
  noteRole?(dir: string): void;
  /** A native module's name: the library/ module that replaces it (name to run under, args its action adds), and what to tell. */
  shadowed?(written: string, roleDir?: string): ShadowedModule;
  /** Whether an installed collection `ns.coll` has a module (or a routing entry) of this name. */
  inCollection?(collection: string, name: string): boolean;
};

export interface TaskLoadContext {
  file: string;
  baseDir: string;
  role?: RoleContext;
  knownModule(name: string): boolean;
  /** A module hostwire has no native version of (src/fallback): its name to run under, or why not. */
  resolveModule?: ModuleResolver;
  loadRole(name: string, params: Vars, loc: SourceLoc, opts?: RoleLoadOptions): Promise<LoadedRole>;
  /** Roles whose vars and defaults the whole play sees (import_role adds its role, as Ansible's play.roles). */
  publicRoles?: RoleContext[];
  /** Role handlers collected while expanding import_role inside task lists. */
  extraHandlers: TaskDef[];
  /** Task files being imported, outermost first: a file met again is a recursion. */
  importChain?: { file: string; loc?: SourceLoc }[];
  /** Inside a rescue or under a when: an include of a file already on the way here may end (a retry loop). */
  conditional?: boolean;
  /** The `collections:` a short module name is searched in (collection-search.ts). */
  collections?: string[];
  /** Told what loads but fails when a host reaches it (a dynamic include's broken file). */
  warn?(message: string): void;
}
