// The end of a batch: run the steps modules deferred on each host (see DeferredStep), whatever they
// are - the runner names no module. A step that fails fails its host and says so.
import type { EventListener } from './events.js';
import type { HostState } from './host-state.js';
import { forEachLimited } from './pool.js';

export async function runDeferredSteps(hosts: Iterable<HostState>, forks: number, emit: EventListener): Promise<void> {
  const due = [...hosts].filter((h) => h.deferred.size > 0 && h.transport && !h.unreachable);
  await forEachLimited(due, forks, async (h) => {
    for (const [key, step] of [...h.deferred]) {
      // Taken off first: a step that fails is reported once, not again after the next batch.
      h.deferred.delete(key);
      try {
        await step.run();
      } catch (err) {
        h.failed = true;
        h.stats.failed++;
        emit({ type: 'warning', message: `${h.name}: ${step.describe} failed: ${(err as Error)?.message ?? String(err)}` });
      }
    }
  });
}
