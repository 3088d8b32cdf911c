// Per-host run lock: flock(1) held by a long-lived command on the host, so two runs against one
// host never interleave. The kernel drops the lock when the holder ends: on release (its stdin
// closes), when its connection dies, and - since a partitioned session can look alive to sshd
// forever - when the controller's heartbeats stop for a lease (lock-script.ts). The lock file
// names its holder, so a waiting run can say who it waits for.
import { randomBytes } from 'node:crypto';
import { HostwireError, TransportError } from '../errors.js';
import { fitsCommandLine } from './host-command.js';
import { LockReplyReader, type LockReply } from './lock-reply.js';
import { holderIdentity, LEASE_EXPIRED_EXIT, lockScript, printable } from './lock-script.js';
import { isStreamingTransport } from './streaming.js';
import { trace } from './trace.js';
import type { Transport } from './transport.js';

export { lockScript, holderIdentity } from './lock-script.js';

/** Default lease: outlives a hanging SSH path during an uplink move (ssh keepalive gives up after ~15 s). */
export const DEFAULT_LEASE_SEC = 30;

export interface HostLockOptions {
  /** Wait for a busy lock for at most this many seconds; undefined: fail at once (HostLockedError). */
  waitSec?: number;
  /** Called once, with the holder's identity (may be empty), when the lock is busy and we start waiting. */
  onWait?: (holder: string) => void;
  /** Interrupts a wait (or the first read): the attempt ends with LockInterruptedError. */
  signal?: AbortSignal;
  /** Lock file in full (tests); default: `file` in the user's private lock directory. */
  path?: string;
  /** Name of the lock file in that directory (default run.lock; -c local uses one per inventory name). */
  file?: string;
  /** Host-side lease in seconds (default DEFAULT_LEASE_SEC); heartbeats go out six times per lease. */
  leaseSec?: number;
  /** Called when the host ended our holder because its lease ran out while we still held it. */
  onLost?: () => void;
  /**
   * A read-only script (a probe batch) run right after the lock is taken, in the same exec: the
   * run's first read costs no exec of its own (an sshd session + shell per host, ~3.5 ms of host
   * CPU and a round trip). Its stdout comes back as `output`; a script too large for the command
   * line (fitsCommandLine) is not run here and `output` stays undefined.
   */
  then?: string;
}

export interface HostLock {
  release: () => Promise<void>;
  /** stdout of `then`; undefined when none was given or it was too large to run here. */
  output?: string;
}

export class HostLockedError extends HostwireError {
  constructor(host: string, readonly holder?: string, advice = 'rerun without --no-wait to wait for it') {
    super('transport', `host ${host} is locked by another hostwire run${holder ? ` (held by ${holder})` : ''}: ${advice}`, { host });
    this.name = 'HostLockedError';
  }
}

export class LockInterruptedError extends HostwireError {
  constructor(host: string) {
    super('interrupted', `interrupted while taking the run lock of ${host}`, { host });
    this.name = 'LockInterruptedError';
  }
}

const FAILURES: Record<string, string> = {
  noflock: 'flock(1) is not installed',
  noopen: 'cannot open the lock file',
};

function failureOf(host: string, r: LockReply | undefined, leftover: string): Error {
  if (r?.kind === 'busy') return new HostLockedError(host, printable(r.holder) || undefined);
  const word = r?.kind === 'other' ? r.word : leftover;
  const why = word.startsWith('unsafe ')
    ? `refusing the lock file ${printable(word.slice(7))}: it must be a regular file (not a symlink) owned by the SSH user, in a directory only that user can write`
    : FAILURES[word] ?? 'the lock command ended';
  return new TransportError(`cannot take the run lock on ${host}: ${why}`, host);
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const done = () => { clearTimeout(timer); signal?.removeEventListener('abort', done); resolve(); };
  const timer = setTimeout(done, ms);
  signal?.addEventListener('abort', done, { once: true });
});

/**
 * Take the host's run lock; resolves with a release function once held. With `waitSec` a busy
 * lock is tried again (each try a short exec: no blocked flock is ever left behind on the host)
 * until the deadline or the signal.
 */
export async function acquireHostLock(transport: Transport, opts: HostLockOptions): Promise<HostLock> {
  const deadline = opts.waitSec === undefined ? 0 : Date.now() + opts.waitSec * 1000;
  let told = false;
  for (let attempt = 0; ; attempt++) {
    if (opts.signal?.aborted) throw new LockInterruptedError(transport.name);
    try {
      return await tryHostLock(transport, opts);
    } catch (e) {
      if (!(e instanceof HostLockedError) || opts.waitSec === undefined) throw e;
      if (!told) opts.onWait?.(e.holder ?? '');
      told = true;
      if (Date.now() >= deadline) throw new HostLockedError(transport.name, e.holder, `gave up waiting for it after ${opts.waitSec} s`);
      await sleep(Math.min(250 * 2 ** Math.min(attempt, 2), Math.max(0, deadline - Date.now())), opts.signal);
    }
  }
}

async function tryHostLock(transport: Transport, opts: HostLockOptions): Promise<HostLock> {
  if (!isStreamingTransport(transport)) throw new TransportError(`transport for ${transport.name} cannot hold a run lock`, transport.name);
  const t0 = performance.now();
  const leaseSec = opts.leaseSec ?? DEFAULT_LEASE_SEC;
  // The end marker of `then`'s output: random, so no probe output can contain it by accident.
  // The holder's stdin carries heartbeats, so its script must fit the command line: a larger read
  // is left out (output undefined) and the caller makes it through a plain exec.
  const then = opts.then !== undefined && fitsCommandLine(opts.then) ? opts.then : undefined;
  const end = then === undefined ? undefined : `@@lock-read-end ${randomBytes(8).toString('hex')}`;
  const run = await transport.start(lockScript({
    path: opts.path, file: opts.file, holder: holderIdentity(), leaseSec,
    then: then === undefined || end === undefined ? undefined : { script: then, end },
  }));
  // Heartbeats from the start: the host buffers them until the holder reads.
  const beat = setInterval(() => { try { run.stdin.write('.'); } catch { /* gone: the lease ends it */ } }, (leaseSec * 1000) / 6);
  beat.unref();
  let reply: LockReply | undefined;
  const reader = new LockReplyReader(end, (r) => { reply ??= r; });
  const settled = await new Promise<'reply' | 'closed' | 'aborted'>((resolve) => {
    const onData = (d: Buffer) => { if (reader.push(d)) finish('reply'); };
    const onAbort = () => finish('aborted');
    const finish = (how: 'reply' | 'closed' | 'aborted') => {
      run.stdout.off('data', onData);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(how);
    };
    run.stdout.on('data', onData);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    void run.done.then(() => finish('closed'));
  });
  if (settled !== 'reply' || reply?.kind !== 'locked') {
    clearInterval(beat);
    run.kill();
    if (settled === 'aborted') throw new LockInterruptedError(transport.name);
    if (settled === 'closed' && reader.holding) throw new TransportError(`the run lock on ${transport.name} ended while reading the host`, transport.name);
    throw failureOf(transport.name, reply, reader.leftover());
  }
  run.stdout.resume();
  trace(transport.name, 'lock', t0);
  let released = false;
  void run.done.then((r) => {
    clearInterval(beat);
    if (!released && r.code === LEASE_EXPIRED_EXIT) opts.onLost?.();
  });
  const release = async () => {
    if (released) return;
    released = true;
    clearInterval(beat);
    const t1 = performance.now();
    try { run.stdin.end(); } catch { /* connection already gone: so is the lock */ }
    await Promise.race([run.done, new Promise((r) => setTimeout(r, 5000).unref())]);
    run.kill();
    trace(transport.name, 'unlock', t1);
  };
  return { release, output: reply.output };
}
