// Pure: what a run does about a transaction an earlier run left pending (its controller was killed
// in the confirm window, or it is still applying). Never "ok, changed=0" while the host is about to
// roll back: a waiting transaction whose state is the wanted one is confirmed (the host re-runs its
// checks when the confirmation arrives); anything else is waited for, and the run plans again.
import type { Change } from '../types.js';
import { unitName } from './script/index.js';
import type { PendingTxn } from './parse.js';

export interface PendingAction { id: string; action: 'confirm' | 'wait'; timeoutSec?: number }
export type PendingChange = Change & { pending: PendingAction };
export const isPendingChange = (c: Change): c is PendingChange => 'pending' in c;

/** The changes to make instead of `planned` while `pending` transactions exist (none: `planned`). */
export function planPending(pending: PendingTxn[], planned: Change[]): Change[] {
  if (pending.length === 0) return planned;
  // No transaction to run (plan-uplink's TxnChange) = the host already has the wanted state.
  const wanted = !planned.some((c) => 'txn' in c);
  if (wanted && pending.every((p) => p.phase === 'waiting')) {
    return [...planned, ...pending.map((p): PendingChange => ({
      summary: `confirm the pending transaction ${unitName(p.id)} (an earlier run started it and never confirmed; the host is in the wanted state and re-checks it)`,
      run: [], pending: { id: p.id, action: 'confirm', ...(p.timeoutSec ? { timeoutSec: p.timeoutSec } : {}) },
    }))];
  }
  return pending.map((p): PendingChange => ({
    summary: `wait for the pending transaction ${unitName(p.id)} (${p.phase === 'waiting' ? 'in its confirm window, not the wanted state' : 'still applying'}) to end, then plan again`,
    run: [], pending: { id: p.id, action: 'wait', ...(p.timeoutSec ? { timeoutSec: p.timeoutSec } : {}) },
  }));
}
