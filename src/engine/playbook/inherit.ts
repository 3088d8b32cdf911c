// Keywords a task inherits from what encloses it (Ansible's FieldAttribute inheritance through
// _get_parent_attribute): the task's own value wins, then the innermost block, the role entry, the play.
// Copied down at load time, so the runner reads one value on the task.
import type { TaskDef, TaskItem } from './types.js';

/** The inheritable keywords hostwire acts on that the runner does not already scope (become, when...). */
export interface Inherited {
  ignoreErrors?: unknown;
  ignoreUnreachable?: boolean | string;
  noLog?: boolean;
  delegateTo?: string;
  delegateFacts?: boolean;
  anyErrorsFatal?: boolean;
  remoteUser?: string;
  diff?: boolean;
  throttle?: number | string;
  /** `timeout:` seconds (or a template): the task fails when its action takes longer. */
  timeout?: number | string;
}

const KEYS = ['ignoreErrors', 'ignoreUnreachable', 'noLog', 'delegateTo', 'anyErrorsFatal', 'remoteUser', 'diff', 'throttle', 'timeout'] as const;

/** Fills what `items` (and every task below them) left unset with `from`'s values. */
export function inheritInto(items: TaskItem[], from: Inherited): void {
  if (!KEYS.some((k) => from[k] !== undefined) && from.delegateFacts === undefined) return;
  for (const it of items) {
    for (const k of KEYS) if (it[k] === undefined && from[k] !== undefined) (it as Inherited)[k] = from[k] as never;
    if (it.kind === 'task') {
      if (it.delegateFacts === undefined && from.delegateFacts !== undefined) it.delegateFacts = from.delegateFacts;
    } else {
      // Nested blocks already passed their own values down; only what they left unset is filled.
      inheritInto([...it.block, ...it.rescue, ...it.always], from);
    }
  }
}

/** A role's handlers run outside its block: the role entry's keywords are copied onto them too. */
export function inheritIntoHandlers(handlers: TaskDef[], from: Inherited): TaskDef[] {
  inheritInto(handlers, from);
  return handlers;
}
