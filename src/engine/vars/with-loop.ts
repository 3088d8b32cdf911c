// `with_<lookup>: terms` on include_tasks/include_role: the same items as on any task (loop-items.ts,
// TaskExecutor._get_loop_items); the caller's vars carry the include's ansible_search_path.
import { loopItems } from './loop-items.js';
import type { Vars } from './render.js';

export function withLoopItems(lookup: string, terms: unknown, vars: Vars): unknown[] {
  return loopItems({ loop: terms, loopWith: lookup, module: 'include_tasks' }, vars);
}
