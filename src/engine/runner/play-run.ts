// What the parts of a play's run share (run-play.ts drives them): the options the playbook runner
// gives a play, and the play's run state that the task loop, blocks, handlers and meta act on.
import type { PlayDef, TaskDef, TaskItem, Vars } from '../playbook/types.js';
import type { Transport } from '../../transports/transport.js';
import type { EventListener } from './events.js';
import type { HostState } from './host-state.js';
import type { ConfirmFn } from './confirm.js';
import type { TagFilter } from './tags.js';
import type { RunVarsContext, Scope } from './task-vars.js';
import type { TasksAhead } from './tasks-ahead.js';
import type { CustomStats } from './custom-stats.js';
import type { NewHostInfo } from '../inventory/index.js';

/** The run's inventory as tasks change it; each edit says whether anything changed. */
export interface RunInventory {
  addHost(info: NewHostInfo): boolean;
  addGroup(host: string, group: string, parents: string[]): boolean;
  /** The `groups` magic variable now. */
  groups(): Record<string, string[]>;
  hostNames(): string[];
}

export interface PlayRunOptions extends TagFilter {
  check: boolean;
  diff: boolean;
  verbosity: number;
  forks: number;
  forceHandlers: boolean;
  startAtTask?: string;
  emit: EventListener;
  /** Opens (or reuses) the transport of a host, gathers nothing. Throws TransportError when unreachable. */
  connect(h: HostState): Promise<Transport>;
  /**
   * Takes the run lock of every connected host of the batch (deadlock-free; may wait); the lock's
   * exec also runs each host's `firstRead` script and hands back its output. A host whose lock
   * failed for a transport reason comes back in `unreachable` with the error.
   */
  lockHosts(batch: HostState[], firstRead?: (h: HostState) => string | undefined): Promise<LockedBatch>;
  /** `read`: the output of factsScript() when the lock already ran it. */
  gatherFacts(h: HostState, subset: Set<string>, read?: string): Promise<Vars>;
  /** The connected state of a delegate_to target the run has no state for yet: an inventory host no play ran on so far, or localhost. */
  delegateHost(name: string): Promise<HostState>;
  /** The host as another SSH login (a task's remote_user): its own connection, no lock. */
  userHost(h: HostState, user: string): Promise<HostState>;
  becomePassword?: string;
  interrupted(): boolean;
  sleep(ms: number): Promise<void>;
  confirm?: ConfirmFn;
  /** pause's prompt on an interactive run (RunOptions.prompt), one question at a time. */
  prompt?: (question: string, echo: boolean) => Promise<string>;
  /** The run's in-memory inventory, which add_host and group_by results change. */
  inventory?: RunInventory;
  /** set_stats' custom stats of the whole run (shown in the recap with show_custom_stats). */
  customStats?: CustomStats;
}

export interface LockedBatch {
  /** Each host's first read, run by the lock's own exec. */
  outputs: Map<HostState, string>;
  /** Hosts whose lock could not be taken because the connection or the host failed (not busy). */
  unreachable: Map<HostState, Error>;
}

/** One play's run: its definition and options, the current batch, and the steps that recurse. */
export interface PlayRun {
  play: PlayDef;
  vctx: RunVarsContext;
  opts: PlayRunOptions;
  /** The tasks ahead of any task, for reading their state early. */
  ahead: TasksAhead;
  /** The hosts of the batch being run. */
  batch: HostState[];
  /** The batch's hosts and every other host a task acted on (delegates): where deferred steps wait. */
  touched: Set<HostState>;
  /** False until --start-at-task's task is reached. */
  startReached: boolean;
  /** `only` narrows the hosts (a rescue runs only for the hosts that failed in its block). */
  runItems(items: TaskItem[], scope: Scope, only?: HostState[]): Promise<void>;
  runTask(task: TaskDef, scope: Scope, hosts: HostState[], handler?: boolean): Promise<void>;
  runHandlers(): Promise<void>;
}
