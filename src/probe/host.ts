// The read protocol's state of one host for one run. The runner creates it with the host (as part
// of its host state) and passes it down; nothing of it is kept in process-wide maps, so two runs in
// one process (the library, the tests) never share a cache or a budget.
import type { Transport } from '../transports/transport.js';
import type { ProbeOutput } from './types.js';

/** Most probes one batch reads (the look-ahead's ceiling). */
export const MAX_BATCH = 400;

/** How many probes the next batch may read, and which of the cached ones were used. */
export interface ProbeBudget {
  size: number;
  used: Set<string>;
}

export interface HostReads {
  /** Probe outputs read in batches, keyed by command; dropped whenever the host changes. */
  cache: Map<string, ProbeOutput>;
  budget: ProbeBudget;
}

export function newHostReads(): HostReads {
  return { cache: new Map(), budget: { size: MAX_BATCH, used: new Set() } };
}

/** What the read protocol needs of a host: its name (for errors), its connection and its reads. */
export interface ProbeHost {
  name: string;
  transport?: Transport;
  reads: HostReads;
}
