// Bad input found before anything runs: options that name something in the inventory or the
// playbook must find it, as ansible-playbook refuses them (a --limit that leaves no host, a
// --start-at-task that names no task); literal module args, notified handlers and vars_prompt.
import { BadInputError } from '../../errors.js';
import { getModule } from '../../modules/registry.js';
import { parseModuleArgs } from '../../modules/kit/ansible-coerce.js';
import { selectHosts, type Inventory } from '../inventory/index.js';
import type { PlayDef, TaskItem, Vars } from '../playbook/types.js';
import { roleDisplayName } from '../playbook/types.js';
import { isTemplated } from '../vars/index.js';
import { formatArgsError } from './args-error.js';

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
    : it.name === name || (it.role !== undefined && `${roleDisplayName(it.role)} : ${it.name}` === name));
  if (!plays.some((p) => found(p.preTasks) || found(p.tasks) || found(p.postTasks))) {
    throw new BadInputError(`--start-at-task: no task named '${name}' in the playbook (names are matched exactly, or as 'role : task')`);
  }
}

/** Every play of the playbook, checked before the first one runs. */
export function checkPlays(plays: PlayDef[], extraVars: Vars): void {
  for (const play of plays) {
    validatePlayStatically(play);
    // hostwire never prompts; Ansible skips a prompt whose variable came with -e, so that is the way in.
    const missing = play.varsPrompt.find((p) => !(p.name in extraVars));
    if (missing) throw new BadInputError(`vars_prompt '${missing.name}': hostwire does not prompt; pass the value with -e ${missing.name}=...`, missing.loc);
  }
}

/** Bad input is found before anything runs: literal module args, handler names. */
function validatePlayStatically(play: PlayDef): void {
  const handlerNames = new Set(play.handlers.flatMap((h) => [h.name ?? '', ...h.listen]));
  const visit = (items: TaskItem[]) => {
    for (const it of items) {
      if (it.kind === 'block') {
        visit(it.block);
        visit(it.rescue);
        visit(it.always);
        continue;
      }
      const mod = getModule(it.module);
      if (mod && it.async !== undefined && it.async !== 0 && !mod.background) {
        throw new BadInputError(`async is not supported for this task: hostwire runs command and shell in the background, not ${it.module}`, it.loc);
      }
      if (mod && !containsTemplate(it.args)) {
        const parsed = parseModuleArgs(mod.args, it.args);
        if (!parsed.success) throw new BadInputError(formatArgsError(it.module, parsed.error, it.args), it.loc);
      }
      for (const n of it.notify) {
        if (!isTemplated(n) && !handlerNames.has(n)) throw new BadInputError(`the handler '${n}' is notified but no handler of that name (or listen topic) exists in the play`, it.loc);
      }
    }
  };
  visit(play.preTasks);
  visit(play.tasks);
  visit(play.postTasks);
  visit(play.handlers);
}

function containsTemplate(v: unknown): boolean {
  if (typeof v === 'string') return isTemplated(v);
  if (Array.isArray(v)) return v.some(containsTemplate);
  if (v && typeof v === 'object') return Object.values(v).some(containsTemplate);
  return false;
}
