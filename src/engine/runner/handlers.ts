// Handlers: after each section of the play (and at meta: flush_handlers), every handler notified on
// a host runs once there, in the order the handlers are written, matched by name or listen topic.
import { BadInputError } from '../../errors.js';
import { isActive, type HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { rootScope } from './task-vars.js';

export async function runHandlers(p: PlayRun): Promise<void> {
  // Every handler listening on a notified topic runs, so topics are cleared only after the pass;
  // a handler's own name is cleared as it runs.
  const consumed = new Map<HostState, Set<string>>();
  for (const handler of p.play.handlers) {
    // A handler is a task: after an interrupt none starts (the recap says no new task started).
    if (p.opts.interrupted()) return;
    // Of handlers with the same name, the last loaded answers to it (Ansible searches them in reverse).
    const shadowed = handler.name !== undefined && [...p.play.handlers].reverse().find((x) => x.name === handler.name) !== handler;
    const names = [shadowed ? '' : handler.name ?? '', ...handler.listen].filter(Boolean);
    const hosts = p.batch.filter((h) => (isActive(h) || (p.opts.forceHandlers && h.failed && !h.unreachable)) && names.some((n) => h.notified.has(n)));
    if (!hosts.length) continue;
    for (const h of hosts) {
      const seen = consumed.get(h) ?? new Set<string>();
      for (const n of names) if (h.notified.has(n)) seen.add(n);
      consumed.set(h, seen);
      if (handler.name && !shadowed) h.notified.delete(handler.name);
    }
    // --force-handlers: a failed host runs its notified handlers, and stays failed afterwards.
    const forced = hosts.filter((h) => h.failed);
    for (const h of forced) h.failed = false;
    await p.runTask(handler, rootScope(p.play), hosts, true);
    for (const h of forced) h.failed = true;
  }
  for (const [h, names] of consumed) for (const n of names) h.notified.delete(n);
  for (const h of p.batch) {
    const unknown = [...h.notified].filter((n) => !p.play.handlers.some((x) => x.name === n || x.listen.includes(n)));
    if (unknown.length) throw new BadInputError(`the handler '${unknown[0]}' is notified but not defined in this play`, p.play.loc);
  }
}
