// The native modules a playbook's tasks name, loaded before anything is checked or run: the registry loads
// a module's code only on demand (registry.ts), and getModule is synchronous.
import { loadModules } from '../../modules/registry.js';
import type { PlayDef, TaskDef, TaskItem } from '../playbook/types.js';

function collect(items: TaskItem[], into: Set<string>): void {
  for (const it of items) {
    if (it.kind === 'block') {
      collect(it.block, into);
      collect(it.rescue, into);
      collect(it.always, into);
    } else into.add(it.module);
  }
}

/** Every module named in these plays (pre_tasks, roles, tasks, post_tasks, handlers, includes read ahead). */
export async function loadPlayModules(plays: PlayDef[]): Promise<void> {
  const names = new Set<string>();
  for (const p of plays) for (const list of [p.preTasks, p.tasks, p.postTasks, p.handlers]) collect(list, names);
  await loadModules(names);
}

/** What an include brings when a host reaches it (a file named by a template was not read ahead). */
export async function loadIncludedModules(tasks: TaskItem[], handlers: TaskDef[]): Promise<void> {
  const names = new Set<string>();
  collect(tasks, names);
  collect(handlers, names);
  await loadModules(names);
}
