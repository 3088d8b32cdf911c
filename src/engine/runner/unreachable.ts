// ignore_unreachable (ansible-core 2.14, plugins/strategy/__init__.py): an unreachable result on such
// a task counts as ok and ignored, the host stays in the play, and the next task tries to reach it
// again (Ansible connects per task). Here: rendering the keyword, the result it registers, and the
// transport a host without a connection gets for its next task.
import { TransportError, type SourceLoc } from '../../errors.js';
import type { ExecOptions, ExecResult, Transport, TransportStats, WriteFileOptions } from '../../transports/transport.js';
import { evalCondition, isTemplated } from '../vars/index.js';
import type { Vars } from '../playbook/types.js';
import type { HostResult } from './events.js';
import type { HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { setOwn } from '../../own-keys.js';

/** The keyword's value for this host: a literal, or a template rendered with the host's vars. */
export function ignoresUnreachable(value: boolean | string | undefined, vars: () => Vars, loc: SourceLoc): boolean {
  if (typeof value !== 'string') return value === true;
  try {
    return isTemplated(value) && evalCondition(value, vars(), loc);
  } catch {
    return false; // a keyword that does not render keeps Ansible's default (not ignored)
  }
}

/** What Ansible registers for an unreachable task (TaskExecutor: unreachable, msg; changed added). */
export function registerUnreachable(h: HostState, register: string | undefined, msg: string | undefined): void {
  if (register) setOwn(h.runtimeVars, register, { unreachable: true, changed: false, msg: msg ?? '' });
}

/** Marks an unreachable result as ignored (the host goes on) when the task ignores unreachable hosts. */
export function withIgnoredUnreachable(result: HostResult, ignore: () => boolean): HostResult {
  return result.status === 'unreachable' && ignore() ? { ...result, ignored: true } : result;
}

/**
 * The transport of a host kept in the play without a connection: the first command a task sends
 * opens the connection and takes the run lock (`reach`); until then nothing is tried, so a task that
 * acts on the controller only (debug, set_fact) runs as in Ansible. A failed reach is the task's
 * TransportError, so the task is unreachable again.
 */
export class ReachOnUse implements Transport {
  readonly stats: TransportStats = { execs: 0, bytesSent: 0, connects: 0 };
  private reached?: Promise<Transport>;

  constructor(readonly name: string, private readonly reach: () => Promise<Transport>) {}

  private target(): Promise<Transport> {
    this.reached ??= this.reach();
    return this.reached;
  }

  async connect(): Promise<void> {
    await this.target();
  }

  async exec(command: string, options?: ExecOptions): Promise<ExecResult> {
    return (await this.target()).exec(command, options);
  }

  async writeFile(path: string, content: string | Buffer, options?: WriteFileOptions): Promise<void> {
    return (await this.target()).writeFile(path, content, options);
  }

  async close(): Promise<void> {}
}

/** The transport a task acts through on `h`: its own, or for a host kept without one, a ReachOnUse. */
export function transportFor(p: PlayRun, h: HostState): Transport {
  return h.transport ?? new ReachOnUse(h.name, () => reach(p, h));
}

/** Connects and locks a kept host (the error the batch's start already met is reported once instead). */
async function reach(p: PlayRun, h: HostState): Promise<Transport> {
  const known = h.unreached?.error;
  if (known) {
    h.unreached = {};
    throw known;
  }
  const t = await p.opts.connect(h);
  // Never act unlocked: a connection whose lock was not taken is closed again.
  const locked = await p.opts.lockHosts([h]).catch((err: unknown) => err as Error);
  if (locked instanceof Error || !h.releaseLock) {
    h.transport = undefined;
    await t.close().catch(() => undefined);
    const err = locked instanceof Error ? locked : locked.unreachable.get(h);
    if (locked instanceof Error && !(err instanceof TransportError)) throw err;
    throw err instanceof TransportError ? err : new TransportError(`${h.name}: the run lock could not be taken: ${err?.message ?? 'unknown error'}`, h.name, err);
  }
  h.unreached = undefined;
  return t;
}
