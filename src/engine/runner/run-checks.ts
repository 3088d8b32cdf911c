// Options that name something in the inventory or the playbook must find it, as ansible-playbook
// refuses them: a --limit that leaves no host, a --start-at-task that names no task.
import { BadInputError } from '../../errors.js';
import { selectHosts, type Inventory } from '../inventory/index.js';
import type { PlayDef, TaskItem } from '../playbook/types.js';

export function checkLimit(inv: Inventory, limit: string | undefined): void {
  if (limit === undefined) return;
  if (selectHosts(inv, 'all', { limit: [limit] }).length === 0) {
    throw new BadInputError(`--limit '${limit}': specified inventory, host pattern and/or --limit leaves us with no hosts to target`);
  }
}

export function checkStartAtTask(plays: PlayDef[], name: string | undefined): void {
  if (name === undefined) return;
  const found = (items: TaskItem[]): boolean => items.some((it) => it.kind === 'block'
    ? found(it.block) || found(it.rescue) || found(it.always)
    : it.name === name || (it.role !== undefined && `${it.role.name} : ${it.name}` === name));
  if (!plays.some((p) => found(p.preTasks) || found(p.tasks) || found(p.postTasks))) {
    throw new BadInputError(`--start-at-task: no task named '${name}' in the playbook (names are matched exactly, or as 'role : task')`);
  }
}
