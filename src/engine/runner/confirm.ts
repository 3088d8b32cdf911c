// Confirmation before disruptive changes (a module sets Change.disruptive): the runner asks through
// RunOptions.confirm before applying; a "no" fails the task without touching the host.
import type { Change } from '../../modules/types.js';

export interface ConfirmRequest {
  host: string;
  task: string;
  /** Every change the task would apply; the disruptive ones carry their reason. */
  changes: Change[];
}

/** Resolves true to apply, false to skip (the task fails with "not confirmed by the user"). */
export type ConfirmFn = (req: ConfirmRequest) => Promise<boolean>;
/** The task-bound form the runner hands to execModule. */
export type AskFn = (changes: Change[]) => Promise<boolean>;

/** One question at a time: hosts run in parallel, prompts must not interleave. */
export function serializeConfirm(fn: ConfirmFn): ConfirmFn {
  let last: Promise<unknown> = Promise.resolve();
  return (req) => {
    const next = last.then(() => fn(req));
    last = next.catch(() => undefined);
    return next;
  };
}

/** Undefined to go on; otherwise the failure message (asked only when a change is disruptive). */
export async function askBeforeApply(changes: Change[], ask: AskFn | undefined): Promise<string | undefined> {
  const disruptive = changes.filter((c) => c.disruptive);
  if (!ask || disruptive.length === 0) return undefined;
  if (await ask(changes)) return undefined;
  return `not confirmed by the user: ${disruptive.map((c) => c.summary).join('; ')}`;
}

/** The text shown before the yes/no question. */
export function formatConfirmSummary(req: ConfirmRequest): string {
  const lines = [`${req.host}: task "${req.task}" will make disruptive changes:`];
  for (const c of req.changes) {
    lines.push(`  ${c.disruptive ? '!' : '-'} ${c.summary}`);
    if (c.disruptive) lines.push(`      why: ${c.disruptive}`);
  }
  return lines.join('\n');
}
