// The run's side of the per-host run locks: take them for a batch without deadlocking against
// other runs, wait with a deadline that a first SIGINT/SIGTERM cuts short, say who holds a busy
// lock, take it again after a reconnect, and refuse two inventory names for one machine (the run
// would wait on its own lock forever).
import { BadInputError, TransportError } from '../../errors.js';
import { acquireHostLock, HostLockedError, LocalTransport, SshTransport } from '../../transports/index.js';
import { LockInterruptedError } from '../../transports/lock.js';
import type { Transport } from '../../transports/transport.js';
import type { RunEvent } from './events.js';
import type { HostState } from './host-state.js';
import type { LockedBatch } from './play-run.js';

/** Default for --lock-timeout: how long a run waits for another run's lock before giving up. */
export const DEFAULT_LOCK_TIMEOUT_SEC = 600;

export interface HostLockerOptions {
  emit: (e: RunEvent) => void;
  /** Fail at once when a lock is busy (--no-wait). */
  noWait?: boolean;
  /** Give up waiting after this many seconds (--lock-timeout). */
  timeoutSec?: number;
  /** The run's interrupt: ends every wait at once. */
  signal?: AbortSignal;
  /** Host-side lease of the lock holder (tests shorten it). */
  leaseSec?: number;
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(done, ms);
  function done() {
    clearTimeout(timer);
    signal?.removeEventListener('abort', done);
    resolve();
  }
  signal?.addEventListener('abort', done, { once: true });
});

/** -c local: several inventory names are this same machine by design; each gets its own lock file. */
const lockFileOf = (h: HostState, t: Transport) => (t instanceof LocalTransport ? `local-${h.name.replace(/[^\w.-]/g, '_')}.lock` : undefined);

export function createHostLocker(o: HostLockerOptions) {
  const locker = new HostLocker(o);
  return { lockHosts: (batch: HostState[], firstRead?: (h: HostState) => string | undefined) => locker.lockHosts(batch, firstRead) };
}

class HostLocker {
  private readonly timeoutSec: number;
  /** Locks are kept until the run ends: a later batch or play must not lock a machine held under another name. */
  private readonly held = new Set<HostState>();
  private readonly relocking = new WeakSet<Transport>();

  constructor(private readonly o: HostLockerOptions) {
    this.timeoutSec = o.timeoutSec ?? DEFAULT_LOCK_TIMEOUT_SEC;
  }

  /**
   * Locks are taken for a whole batch without waiting on the host; when one is busy, every lock
   * this run took in that round is released and retried after a random pause, so two runs over
   * overlapping hosts can never deadlock each other. `firstRead` gives a host's first read (facts
   * or a probe batch), run by the lock's own exec; its outputs come back per host. A host whose
   * lock fails for a transport reason (the connection dropped, an unsafe lock directory) comes
   * back as unreachable, as a failed connect does; the others go on.
   */
  async lockHosts(batch: HostState[], firstRead?: (h: HostState) => string | undefined): Promise<LockedBatch> {
    refuseSameMachine([...this.held, ...batch.filter((h) => !this.held.has(h))]);
    const locked: LockedBatch = { outputs: new Map(), unreachable: new Map() };
    const deadline = Date.now() + this.timeoutSec * 1000;
    const told = new Set<HostState>();
    for (;;) {
      const todo = batch.filter((h) => h.transport && !h.releaseLock && !h.unreachable && !locked.unreachable.has(h));
      if (!todo.length) return locked;
      const busy = await this.lockRound(todo, locked, firstRead);
      if (!busy.length) return locked;
      if (this.o.noWait) throw busyError(busy, 'rerun without --no-wait to wait for it');
      await releaseAll(batch);
      if (Date.now() >= deadline) throw busyError(busy, `gave up after waiting ${this.timeoutSec} s (--lock-timeout)`);
      for (const [h, err] of busy) {
        if (told.has(h)) continue;
        told.add(h);
        this.o.emit({ type: 'host_wait', host: h.name, message: this.waitMessage(h, err.holder) });
      }
      // What was read under the released locks may change before they are taken again.
      locked.outputs.clear();
      await sleep(Math.min(200 + Math.random() * 800, Math.max(0, deadline - Date.now())), this.o.signal);
      if (this.o.signal?.aborted) throw new LockInterruptedError(busy.map(([h]) => h.name).join(', '));
    }
  }

  /** One try at every host's lock; returns the busy ones. */
  private async lockRound(todo: HostState[], locked: LockedBatch, firstRead?: (h: HostState) => string | undefined) {
    const busy: [HostState, HostLockedError][] = [];
    await Promise.all(todo.map(async (h) => {
      const t = h.transport!;
      try {
        const lock = await acquireHostLock(t, { file: lockFileOf(h, t), then: firstRead?.(h), signal: this.o.signal, leaseSec: this.o.leaseSec, onLost: this.lost(h) });
        h.releaseLock = lock.release;
        this.held.add(h);
        if (lock.output !== undefined) locked.outputs.set(h, lock.output);
        this.relockOnReconnect(h, t);
      } catch (err) {
        if (err instanceof TransportError) locked.unreachable.set(h, err);
        else if (err instanceof HostLockedError) busy.push([h, err]);
        else throw err;
      }
    }));
    return busy;
  }

  /**
   * The lock lives on the connection: after a reconnect (the uplink move) take it again, waiting
   * on the host for at most the lock timeout (the dead session's holder ends within its lease).
   */
  private relockOnReconnect(h: HostState, t: Transport): void {
    if (!(t instanceof SshTransport) || this.relocking.has(t)) return;
    this.relocking.add(t);
    t.onReconnect(async () => {
      const lock = await acquireHostLock(t, {
        waitSec: this.timeoutSec, signal: this.o.signal, leaseSec: this.o.leaseSec, onLost: this.lost(h),
        onWait: (holder) => this.o.emit({ type: 'host_wait', host: h.name, message: this.waitMessage(h, holder) }),
      });
      h.releaseLock = lock.release;
    });
  }

  private waitMessage(h: HostState, holder?: string): string {
    return `waiting for another hostwire run to release ${h.name}${holder ? ` (held by ${holder})` : ''}; giving up after ${this.timeoutSec} s (--lock-timeout), Ctrl-C to stop`;
  }

  private lost(h: HostState) {
    return () => this.o.emit({
      type: 'warning',
      message: `${h.name}: the run lock's holder ended (no heartbeat reached the host within its lease); another run may now change ${h.name} too`,
    });
  }
}

const releaseAll = (batch: HostState[]) => Promise.all(batch.map(async (h) => {
  await h.releaseLock?.();
  h.releaseLock = undefined;
}));

function busyError(busy: [HostState, HostLockedError][], advice: string): HostLockedError {
  const holders = [...new Set(busy.map(([, e]) => e.holder).filter(Boolean))];
  return new HostLockedError(busy.map(([h]) => h.name).join(', '), holders.length ? holders.join("; ") : undefined, advice);
}

/**
 * Two inventory names that reach the same sshd (same address and port, or the same host key)
 * would each take the one machine's run lock: the second waits for the first forever.
 */
export function refuseSameMachine(batch: HostState[]): void {
  const seen = new Map<string, string>();
  for (const h of batch) {
    const t = h.transport;
    if (!(t instanceof SshTransport) || h.unreachable) continue;
    const keys = [`address ${t.endpointKey}`, ...(t.hostKey ? [`host key ${t.hostKey}`] : [])];
    for (const key of keys) {
      const other = seen.get(key);
      if (other !== undefined && other !== h.name) {
        const what = key.startsWith('address') ? `the same address (${t.endpoint})` : 'the same SSH host key';
        throw new BadInputError(`inventory hosts '${other}' and '${h.name}' are one machine (${what}): a run takes one lock per machine, so it would wait on itself; keep one of the two names (or --limit one)`);
      }
      seen.set(key, h.name);
    }
  }
}
