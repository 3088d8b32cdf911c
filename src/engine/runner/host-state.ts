// Everything the runner keeps per host during one run.
import type { Transport } from '../../transports/transport.js';
import type { DeferredStep } from '../../modules/types.js';
import { newHostReads, type HostReads } from '../../probe/host.js';
import { emptyStats, type HostStats } from './events.js';
import type { Vars } from '../playbook/types.js';

export interface HostState {
  name: string;
  /** Inventory vars (groups < host), already merged by the inventory. */
  inventoryVars: Vars;
  /** Keys of inventoryVars that add_host set: data, never rendered again. */
  dataKeys?: Set<string>;
  facts: Vars;
  /** register: and set_fact: results; they outlive the play, as in Ansible. */
  runtimeVars: Vars;
  /** include_vars results (controller vars files): trusted, below runtimeVars; they outlive the play too. */
  includedVars: Vars;
  transport?: Transport;
  /** The login the SSH transport uses (remote_user keying); undefined for local or before connecting. */
  connectedAs?: string;
  /** The read protocol's cache and read-ahead budget of this host. */
  reads: HostReads;
  failed: boolean;
  unreachable: boolean;
  /**
   * No connection, yet still in the play: the connect failed with gather_facts off (as Ansible, the
   * first task that acts on the host finds out: `error`, reported then instead of a second try), or
   * an ignore_unreachable task kept it (each later task tries again).
   */
  unreached?: { error?: Error };
  /** Set by meta: end_host / end_play until the play ends. */
  ended: boolean;
  /** Handler names (and listen topics) notified in this play. */
  notified: Set<string>;
  stats: HostStats;
  /** Steps modules left for the end of the batch (a daemon-reload), by key; the runner runs them. */
  deferred: Map<string, DeferredStep>;
  releaseLock?: () => Promise<void>;
}

export function newHostState(name: string, inventoryVars: Vars): HostState {
  return {
    name,
    inventoryVars,
    facts: {},
    runtimeVars: {},
    includedVars: {},
    reads: newHostReads(),
    failed: false,
    unreachable: false,
    ended: false,
    notified: new Set(),
    stats: emptyStats(),
    deferred: new Map(),
  };
}

export const isActive = (h: HostState) => !h.failed && !h.unreachable && !h.ended;
