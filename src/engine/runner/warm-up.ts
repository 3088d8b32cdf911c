// Modules that keep something running on a host for the run (the Ansible-module fallback's Python
// worker) may start it as soon as the host's connection is open, so it comes up while the run lock
// is taken and the first reads are made instead of in front of the module's first task. Only for
// tasks sure to be reached: a task under a `when` (its own, a block's, a role entry's, an include's),
// in a rescue, a handler or deselected by tags may be skipped, and a skipped task must cost the host
// nothing (no worker, no upload); such a module starts when its task runs. The runner names no module:
// it asks every module of those tasks whether it declares a warm-up. A warm-up's controller-side
// part (prepare: the fallback's payload) starts before the host's connection opens, beside it.
import { getModule } from '../../modules/registry.js';
import type { Module } from '../../modules/types.js';
import type { PlayDef, TaskItem } from '../playbook/types.js';
import type { Transport } from '../../transports/transport.js';
import { shouldRunByTags, type TagFilter } from './tags.js';

const ALL: TagFilter = { tags: [], skipTags: [] };

/** The warm-up modules of the tasks in `items` that run whenever the play reaches them. */
function modulesOf(items: TaskItem[], tags: TagFilter, outerTags: string[], out: Set<Module<any, any>>): Set<Module<any, any>> {
  for (const it of items) {
    const itemTags = [...outerTags, ...it.tags];
    if (it.when.length > 0) continue;
    if (it.kind === 'block') {
      if (it.dynamic && it.dynamic.task.when.length > 0) continue;
      modulesOf(it.block, tags, itemTags, out);
      modulesOf(it.always, tags, itemTags, out);
      continue;
    }
    if (!shouldRunByTags(itemTags, tags)) continue;
    const m = getModule(it.module);
    if (m?.warmUp || m?.prepare) out.add(m);
  }
  return out;
}

const playModules = (play: PlayDef, tags: TagFilter) => modulesOf([...play.preTasks, ...play.tasks, ...play.postTasks], tags, play.tags, new Set());

/** Starts the controller-side part of the warm-ups before a host is connected; not awaited, never throws. */
export function prepareModules(play: PlayDef | undefined, tags: TagFilter = ALL): void {
  if (!play) return;
  for (const m of playModules(play, tags)) {
    try {
      m.prepare?.();
    } catch {
      // an optimisation only, as warmUp
    }
  }
}

/** Starts the warm-ups for a freshly connected host; not awaited, never throws. */
export function warmUpModules(play: PlayDef | undefined, transport: Transport, vars: Record<string, unknown>, tags: TagFilter = ALL): void {
  if (!play) return;
  const mods = playModules(play, tags);
  for (const m of mods) {
    try {
      m.warmUp?.({ transport, vars });
    } catch {
      // a warm-up is an optimisation: the task reports any real problem itself
    }
  }
}
