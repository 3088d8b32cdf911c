// The play's tasks in order (blocks flattened), so that a task needing a read can also read what the
// tasks after it will need, in the same exec (the read protocol itself lives in src/probe/): every
// probe of a later task that can already be rendered for this host.
import { evalCondition, loopItemsAhead, renderValue } from '../vars/index.js';
import { getModule } from '../../modules/registry.js';
import { parseModuleArgs } from '../../modules/kit/ansible-coerce.js';
import type { PlayDef, TaskDef, TaskItem } from '../playbook/types.js';
import type { HostState } from './host-state.js';
import type { ProbeRead } from '../../probe/types.js';
import { childScope, rootScope, taskVars, type RunVarsContext, type Scope } from './task-vars.js';
import { shouldRunByTags, type TagFilter } from './tags.js';

interface FlatTask {
  task: TaskDef;
  scope: Scope;
}

/** At most this many reads are gathered ahead for one exec. */
const MAX_AHEAD = 400;

export class TasksAhead {
  private flat: FlatTask[] = [];
  private index = new Map<TaskDef, number>();

  constructor(play: PlayDef, private vctx: RunVarsContext, private tags: TagFilter) {
    const root = rootScope(play);
    for (const items of [play.preTasks, play.tasks, play.postTasks]) this.flatten(items, root);
  }

  private flatten(items: TaskItem[], scope: Scope): void {
    for (const it of items) {
      if (it.kind === 'task') {
        this.index.set(it, this.flat.length);
        this.flat.push({ task: it, scope });
      } else {
        const s = childScope(scope, it);
        this.flatten(it.block, s);
        this.flatten(it.always, s);
      }
    }
  }

  /** The first task of the play that reads state, and whether it reads as the connection's user. */
  firstReader(): { task: TaskDef; become: boolean } | undefined {
    const first = this.flat.find(({ task }) => getModule(task.module)?.probe || getModule(task.module)?.readsAhead);
    return first && { task: first.task, become: Boolean(first.task.become ?? first.scope.become) };
  }

  /** Probe reads of `current` and the tasks after it that can already be rendered for this host. */
  readsFrom(h: HostState, current: TaskDef): ProbeRead[] {
    const start = this.index.get(current);
    if (start === undefined) return [];
    const out: ProbeRead[] = [];
    for (let i = start; i < this.flat.length && out.length < MAX_AHEAD; i++) {
      const { task, scope } = this.flat[i];
      const mod = getModule(task.module);
      if (!mod?.probe && !mod?.readsAhead) continue;
      if (!shouldRunByTags([...scope.tags, ...task.tags], this.tags)) continue;
      try {
        const items = task.loop === undefined ? [undefined] : loopItemsAhead(task, taskVars(this.vctx, h, scope, task));
        for (const item of Array.isArray(items) ? items : []) {
          const extra = task.loop === undefined ? undefined : { [task.loopVar]: item };
          const vars = taskVars(this.vctx, h, scope, task, extra);
          if (!evalCondition([...scope.when, ...task.when] as string[], vars)) continue;
          const parsed = parseModuleArgs(mod.args, renderValue(task.args, vars));
          if (!parsed.success) continue;
          if (mod.probe) out.push(mod.probe(parsed.data, { host: h.name, vars }));
          else out.push(...mod.readsAhead!(parsed.data));
        }
      } catch {
        // Depends on something not known yet (a register of an earlier task): read it when its turn comes.
      }
    }
    return out;
  }
}
