// Per-host run lock: flock(1) held by a long-lived command on the host, so two runs against one
// host never interleave, and the kernel drops the lock when the run or its connection dies
// (the holder's stdin closes, `cat` ends, the fd is gone).
import { HostwireError, TransportError } from '../engine/errors.js';
import { shellQuote } from './quote.js';
import { isStreamingTransport } from './streaming.js';
import type { Transport } from './transport.js';

export interface HostLockOptions {
  /** Wait for another run's lock (true) or fail at once (false, --no-wait). */
  wait: boolean;
  /** Called once when the lock is busy and we start waiting. */
  onWait?: () => void;
  /** Lock file; default /run/hostwire.lock, or /tmp/hostwire.lock when /run is not writable. */
  path?: string;
}

export class HostLockedError extends HostwireError {
  constructor(host: string) {
    super('transport', `host ${host} is locked by another hostwire run (rerun without --no-wait to wait for it)`, { host });
    this.name = 'HostLockedError';
  }
}

export function lockScript(wait: boolean, path?: string): string {
  return [
    path ? `f=${shellQuote(path)}` : 'if [ -w /run ]; then f=/run/hostwire.lock; else f=/tmp/hostwire.lock; fi',
    'command -v flock >/dev/null 2>&1 || { echo noflock; exit 127; }',
    'exec 9>>"$f" || { echo noopen; exit 71; }',
    'chmod 0666 "$f" 2>/dev/null',
    `if ! flock -n 9; then echo busy; ${wait ? 'flock 9 || exit 71' : 'exit 75'}; fi`,
    'echo locked',
    // Hold the lock until our stdin closes: release() or the connection's death.
    'exec cat >/dev/null',
  ].join('\n');
}

/** Take the host's run lock; resolves with a release function once held. */
export async function acquireHostLock(transport: Transport, opts: HostLockOptions): Promise<() => Promise<void>> {
  if (!isStreamingTransport(transport)) throw new TransportError(`transport for ${transport.name} cannot hold a run lock`, transport.name);
  const run = await transport.start(lockScript(opts.wait, opts.path));
  const state = await new Promise<string>((resolve) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const word = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (word === 'busy' && opts.wait) opts.onWait?.();
        else { run.stdout.off('data', onData); resolve(word); return; }
      }
    };
    run.stdout.on('data', onData);
    void run.done.then(() => resolve(buf.trim() || 'closed'));
  });
  if (state !== 'locked') {
    run.kill();
    if (state === 'busy') throw new HostLockedError(transport.name);
    const why = state === 'noflock' ? 'flock(1) is not installed' : state === 'noopen' ? 'cannot open the lock file' : 'the lock command ended';
    throw new TransportError(`cannot take the run lock on ${transport.name}: ${why}`, transport.name);
  }
  run.stdout.resume();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try { run.stdin.end(); } catch { /* connection already gone: so is the lock */ }
    await Promise.race([run.done, new Promise((r) => setTimeout(r, 5000).unref())]);
    run.kill();
  };
}
