// What loading a task list needs to know: where it is, its role, how to load roles.
import type { SourceLoc } from '../../errors.js';
import type { RoleContext, TaskDef, TaskItem, Vars } from './types.js';

export interface LoadedRole {
  ctx: RoleContext;
  tasks: TaskItem[];
  handlers: TaskDef[];
}

export interface TaskLoadContext {
  file: string;
  baseDir: string;
  role?: RoleContext;
  knownModule(name: string): boolean;
  /** A module hostwire has no native version of (src/fallback): its name to run under, or why not. */
  resolveModule?(written: string, roleDir?: string): { name: string } | { error: string };
  /** `duplicates`: load it again even when loaded before with the same params (include_role). */
  loadRole(name: string, params: Vars, loc: SourceLoc, tasksFrom?: string, duplicates?: boolean): Promise<LoadedRole>;
  /** Role handlers collected while expanding import_role inside task lists. */
  extraHandlers: TaskDef[];
  /** Task files being imported, outermost first: a file met again is a recursion. */
  importChain?: { file: string; loc?: SourceLoc }[];
}
