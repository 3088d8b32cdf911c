// `run --list-tasks` as ansible-playbook prints it (cli/playbook.py): a named task as
// `role : name`, an unnamed one by its action as written (no role prefix), an include_* task as itself
// (not what it includes), tags sorted; tag filters (--tags/--skip-tags, never) apply as in a run.
// Only a block's own task list is walked (_process_block reads b.block): tasks under rescue: and
// always: are never listed. A named include_role shows its name alone (IncludeRole.get_name). A role
// met again is listed again (its `listed` tasks), as Role.compile does; the run skips it.
import { shouldRunByTags, type TagFilter } from '../engine/runner/tags.js';
import { internalAction } from '../engine/playbook/action-form.js';
import { roleDisplayName, type PlayDef, type TaskItem, type Vars } from '../engine/playbook/types.js';
import { mergeVars, renderValue, templatedVars } from '../engine/vars/index.js';

/**
 * `play #N (hosts): name`: the playbook executor post-validates each play before listing it, so its
 * hosts and name are templated with the play's vars and -e vars (one that cannot be is shown as written).
 */
export function playFieldRenderer(play: PlayDef, extraVars: Vars): (v: string) => string {
  const vars = templatedVars(mergeVars(play.vars, extraVars));
  return (v) => {
    try {
      return String(renderValue(v, vars, play.loc));
    } catch {
      return v;
    }
  };
}

export function playHeader(play: PlayDef, index: number, extraVars: Vars): string {
  const shown = playFieldRenderer(play, extraVars);
  return `\n  play #${index + 1} (${shown(play.hosts)}): ${shown(play.name)}\tTAGS: [${play.tags.join(',')}]\n`;
}

function shownName(it: TaskItem, name: string): string {
  if (!it.role) return name;
  if (it.kind === 'block' && it.include !== undefined && internalAction(it.include) === 'include_role') return name;
  return `${roleDisplayName(it.role)} : ${name}`;
}

function line(it: TaskItem, label: string, tags: string[]): string {
  const shown = it.name !== undefined ? shownName(it, it.name) : label;
  return `      ${shown}\tTAGS: [${[...tags].sort().join(', ')}]\n`;
}

export function listPlayTasks(play: PlayDef, filter: TagFilter): string {
  let out = '';
  const walk = (items: TaskItem[], inherited: string[]) => {
    for (const it of items) {
      const tags = [...new Set([...inherited, ...it.tags])];
      if (it.kind === 'block' && it.include === undefined) {
        walk(it.block, tags);
        if (it.listed) walk(it.listed, tags);
        continue;
      }
      if (!shouldRunByTags(tags, filter)) continue;
      out += line(it, it.kind === 'block' ? it.include! : it.written, tags);
    }
  };
  walk([...play.preTasks, ...play.tasks, ...play.postTasks], play.tags);
  return out;
}
