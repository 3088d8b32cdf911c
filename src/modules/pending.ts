// Work a module left running on a host that outlives hostwire's process (the uplink move's
// commit-confirmed transaction): registered while it is pending, so a run that must quit at once
// (a second Ctrl-C) can still say what the host will do by itself and how to check it.

export interface PendingHostWork {
  host: string;
  /** What is pending, e.g. "the uplink move hostwire-configure-ovs-abc (transient unit)". */
  what: string;
  /** When the host acts by itself without hostwire (controller clock, approximate). */
  at: Date;
  /** What the host does then, e.g. "rolls itself back". */
  action: string;
  /** Commands to run on the host to see the outcome. */
  check: string[];
}

const pending = new Set<PendingHostWork>();

/** Register; the returned function removes the entry once the work is settled. */
export function notePending(work: PendingHostWork): () => void {
  pending.add(work);
  return () => { pending.delete(work); };
}

export function pendingHostWork(): PendingHostWork[] {
  return [...pending];
}

/** The lines printed when hostwire quits with work still pending on hosts. */
export function formatPending(list: PendingHostWork[]): string {
  return list.map((w) => [
    `${w.host}: ${w.what} is still pending: unless it was confirmed, the host ${w.action} at about ${w.at.toISOString().slice(11, 19)} UTC.`,
    `  check it on ${w.host} with: ${w.check.join('; ')}`,
  ].join('\n')).join('\n');
}
