// Modules that keep something running on a host for the run (the Ansible-module fallback's Python
// worker) may start it as soon as the host's connection is open, so it comes up while the run lock
// is taken and the first reads are made instead of in front of the module's first task. The runner
// names no module: it asks every module the play uses whether it declares a warm-up.
import { getModule } from '../../modules/registry.js';
import type { Module } from '../../modules/types.js';
import type { PlayDef, TaskItem } from '../playbook/types.js';
import type { Transport } from '../../transports/transport.js';

function modulesOf(items: TaskItem[], out: Set<Module<any, any>>): Set<Module<any, any>> {
  for (const it of items) {
    if (it.kind === 'block') {
      modulesOf(it.block, out);
      modulesOf(it.rescue, out);
      modulesOf(it.always, out);
      continue;
    }
    const m = getModule(it.module);
    if (m?.warmUp) out.add(m);
  }
  return out;
}

/** Starts the warm-ups of the play's modules on a freshly connected host; not awaited, never throws. */
export function warmUpModules(play: PlayDef | undefined, transport: Transport, vars: Record<string, unknown>): void {
  if (!play) return;
  const mods = modulesOf([...play.preTasks, ...play.tasks, ...play.postTasks, ...play.handlers], new Set());
  for (const m of mods) {
    try {
      m.warmUp!({ transport, vars });
    } catch {
      // a warm-up is an optimisation: the task reports any real problem itself
    }
  }
}
