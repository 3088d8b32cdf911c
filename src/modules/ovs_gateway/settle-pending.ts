// hostwire's side of a transaction an earlier run left pending (see plan-pending.ts): confirm it, or
// wait for the host's verdict and then plan again from a fresh read of the host.
import { HostwireError } from '../../errors.js';
import type { ModuleContext } from '../types.js';
import { awaitTransaction } from './commit.js';
import { unitName } from './script/index.js';
import type { PendingChange } from './plan-pending.js';

/** Confirms or waits for each pending transaction; returns what became of the waited ones. */
export async function settlePending(changes: PendingChange[], defaultTimeout: number, ctx: ModuleContext): Promise<string[]> {
  const outcomes: string[] = [];
  for (const { pending: p } of changes) {
    const unit = unitName(p.id);
    // The earlier run's window, not ours, bounds how long the host may take.
    const timeoutSec = Math.max(p.timeoutSec ?? 0, defaultTimeout);
    const r = await awaitTransaction(p.id, ctx, { timeoutSec, confirm: p.action === 'confirm' });
    if (p.action === 'confirm' && r.status !== 'ok') {
      throw new HostwireError('command-failed', `the pending transaction ${unit} (left by an earlier run) rolled back when confirmed: ${r.reason}\n${r.diagnostics ?? ''}`.trimEnd(), { host: ctx.host });
    }
    outcomes.push(`${unit} ${r.status === 'ok' ? 'was confirmed' : `rolled back (${r.reason})`}`);
  }
  return outcomes;
}
