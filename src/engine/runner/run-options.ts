// What a caller of runPlaybook passes (the CLI, the library entry, scenarios, tests), and the exit
// codes a run ends with (Ansible's).
import type { Vars } from '../playbook/types.js';
import type { HostKeyChecking } from '../../transports/index.js';
import type { ConfirmFn } from './confirm.js';
import type { EventListener } from './events.js';
import type { ConnectionDefaults, PlayDefaults } from './config-defaults.js';

export interface RunOptions {
  playbook: string;
  inventory: string[];
  limit?: string;
  extraVars?: Vars;
  check?: boolean;
  diff?: boolean;
  /** -v count: debug tasks with a higher `verbosity:` are skipped, as in Ansible. */
  verbosity?: number;
  forks?: number;
  tags?: string[];
  skipTags?: string[];
  startAtTask?: string;
  forceHandlers?: boolean;
  /** Force every host to this connection type (-c local). */
  connection?: 'ssh' | 'local';
  hostKeyChecking?: HostKeyChecking;
  /** Connections go through hostwire's connection keeper, which keeps them this long after the run
   * (ansible.cfg's ssh_args ControlPersist); absent or 0: each run connects itself. */
  connectionPersistSec?: number;
  /** How to start a keeper: [node, CLI script] (default: this process's). */
  keeperCommand?: string[];
  becomePassword?: string;
  /** Fail at once when another run holds a host's lock (--no-wait). */
  noWait?: boolean;
  /** Give up waiting for another run's lock after this many seconds (--lock-timeout, default 600). */
  lockTimeoutSec?: number;
  /** Host-side lease of the run lock's holder in seconds (default 30; tests shorten it). */
  lockLeaseSec?: number;
  rolesPath?: string[];
  /** Write <playbook>.retry listing failed hosts (default true). */
  retryFile?: boolean;
  onEvent?: EventListener;
  /** SSH handshakes in flight at once (default 32); every connected host still runs in parallel. */
  connectConcurrency?: number;
  /** Abort: stop starting tasks, let running ones finish, return with exit code 99. */
  signal?: AbortSignal;
  /** Asked before applying a change a module marks disruptive (never under --check); false skips it. */
  confirm?: ConfirmFn;
  /** Asks the user on the controller's terminal (pause's prompt); given only when the run is interactive. */
  prompt?: (question: string, echo: boolean) => Promise<string>;
  /** ansible.cfg / ANSIBLE_* values below the inventory's own ansible_* vars. */
  connectionDefaults?: ConnectionDefaults;
  /** ansible.cfg / ANSIBLE_* defaults for plays that do not set these keywords. */
  playDefaults?: PlayDefaults;
}

export const EXIT = { ok: 0, failed: 2, unreachable: 4, badInput: 5, interrupted: 99, internal: 250 } as const;
