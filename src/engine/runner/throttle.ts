// `throttle:` as ansible-core 2.14's strategy reads it when it queues a task (StrategyBase._queue_task):
// templated with the host's vars, then Python's int() of the result; 0 or less means no throttle.
import { BadInputError } from '../../errors.js';
import { renderValue } from '../vars/index.js';
import type { TaskDef, Vars } from '../playbook/types.js';

/** Python's int() on a rendered value: whole-number text, a number (truncated) or a bool; else undefined. */
function pyInt(v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

/** The task's throttle for a host (`vars`: that host's task vars, asked only for a template). */
export function taskThrottle(task: TaskDef, vars: () => Vars): number {
  const t = task.throttle;
  if (t === undefined) return 0;
  if (typeof t === 'number') return t;
  const n = pyInt(renderValue(t, vars(), task.loc));
  if (n === undefined) throw new BadInputError(`Failed to convert the throttle value to an integer (${JSON.stringify(t)})`, task.loc);
  return Math.max(n, 0);
}
