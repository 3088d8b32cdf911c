// meta: tasks act on the play's run itself: flush_handlers, end_play, end_host, clear_facts,
// clear_host_errors (others, e.g. noop, do nothing).
import { evalCondition } from '../vars/index.js';
import type { TaskDef } from '../playbook/types.js';
import type { HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { taskVars, type Scope } from './task-vars.js';

export async function runMeta(p: PlayRun, task: TaskDef, scope: Scope, hosts: HostState[]): Promise<void> {
  const action = String(task.args._raw_params ?? '');
  const applies = hosts.filter((h) => evalCondition([...scope.when, ...task.when] as string[], taskVars(p.vctx, h, scope, task), task.loc));
  switch (action) {
    case 'flush_handlers':
      return p.runHandlers();
    case 'end_play':
      if (applies.length) for (const h of p.batch) h.ended = true;
      return;
    case 'end_host':
      for (const h of applies) h.ended = true;
      return;
    case 'clear_facts':
      for (const h of applies) h.facts = {};
      return;
    case 'clear_host_errors':
      for (const h of p.batch) if (h.failed) h.failed = false;
      return;
    default:
      return;
  }
}
