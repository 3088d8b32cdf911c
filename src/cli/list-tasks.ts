// `run --list-tasks` as ansible-playbook prints it (cli/playbook.py): a named task as
// `role : name`, an unnamed one by its action as written (no role prefix), an include_* task as itself
// (not what it includes), tags sorted; tag filters (--tags/--skip-tags, never) apply as in a run.
import { shouldRunByTags, type TagFilter } from '../engine/runner/tags.js';
import type { PlayDef, TaskItem } from '../engine/playbook/types.js';

function line(it: TaskItem, label: string, tags: string[]): string {
  const shown = it.name !== undefined ? (it.role ? `${it.role.name} : ${it.name}` : it.name) : label;
  return `      ${shown}\tTAGS: [${[...tags].sort().join(', ')}]\n`;
}

export function listPlayTasks(play: PlayDef, filter: TagFilter): string {
  let out = '';
  const walk = (items: TaskItem[], inherited: string[]) => {
    for (const it of items) {
      const tags = [...new Set([...inherited, ...it.tags])];
      if (it.kind === 'block' && it.include === undefined) {
        walk([...it.block, ...it.rescue, ...it.always], tags);
        continue;
      }
      if (!shouldRunByTags(tags, filter)) continue;
      out += line(it, it.kind === 'block' ? it.include! : it.written, tags);
    }
  };
  walk([...play.preTasks, ...play.tasks, ...play.postTasks], play.tags);
  return out;
}
