// What the read protocol needs of one host: its name (for errors), its connection and the cache
// of probe outputs read in batches. The runner's host state satisfies it.
import type { Transport } from '../transports/transport.js';
import type { ProbeOutput } from './types.js';

export interface ProbeHost {
  name: string;
  transport?: Transport;
  /** Probe outputs read in one batch, keyed by command; dropped whenever the host changes. */
  probeCache: Map<string, ProbeOutput>;
}
