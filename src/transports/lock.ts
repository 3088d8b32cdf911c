// Per-host run lock: flock(1) held by a long-lived command on the host, so two runs against one
// host never interleave, and the kernel drops the lock when the run or its connection dies
// (the holder's stdin closes, its shell ends, the fd is gone).
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { HostwireError, TransportError } from '../engine/errors.js';
import { shellQuote } from './quote.js';
import { isStreamingTransport } from './streaming.js';
import { trace } from './trace.js';
import type { Transport } from './transport.js';

export interface HostLockOptions {
  /** Wait for another run's lock (true) or fail at once (false, --no-wait). */
  wait: boolean;
  /** Called once when the lock is busy and we start waiting. */
  onWait?: () => void;
  /** Lock file; default /run/hostwire.lock, or /tmp/hostwire.lock when /run is not writable. */
  path?: string;
  /**
   * A read-only script (a probe batch) run right after the lock is taken, in the same exec: the
   * run's first read costs no exec of its own (an sshd session + shell per host, ~3.5 ms of host
   * CPU and a round trip). Its stdout comes back as `output`.
   */
  then?: string;
}

export interface HostLock {
  release: () => Promise<void>;
  /** stdout of `then`; undefined when none was given or the lock holder died before it ended. */
  output?: string;
}

export class HostLockedError extends HostwireError {
  constructor(host: string) {
    super('transport', `host ${host} is locked by another hostwire run (rerun without --no-wait to wait for it)`, { host });
    this.name = 'HostLockedError';
  }
}

export function lockScript(wait: boolean, path?: string, then?: { script: string; end: string }): string {
  return [
    path ? `f=${shellQuote(path)}` : 'if [ -w /run ]; then f=/run/hostwire.lock; else f=/tmp/hostwire.lock; fi',
    'command -v flock >/dev/null 2>&1 || { echo noflock; exit 127; }',
    // Made writable for every user once, when this run creates it (a chmod per run is a process per host).
    '[ -e "$f" ] || hwnew=1',
    'exec 9>>"$f" || { echo noopen; exit 71; }',
    '[ -z "$hwnew" ] || chmod 0666 "$f" 2>/dev/null',
    `if ! flock -n 9; then echo busy; ${wait ? 'flock 9 || exit 71' : 'exit 75'}; fi`,
    'echo locked',
    ...(then ? [then.script, `printf '\\n%s\\n' '${then.end}'`] : []),
    // Hold the lock until our stdin closes: release() or the connection's death (the shell's own
    // `read`, not `exec cat`: one program start less per host).
    'while read -r _; do :; done',
  ].join('\n');
}

/** Take the host's run lock; resolves with a release function once held. */
export async function acquireHostLock(transport: Transport, opts: HostLockOptions): Promise<HostLock> {
  if (!isStreamingTransport(transport)) throw new TransportError(`transport for ${transport.name} cannot hold a run lock`, transport.name);
  const t0 = performance.now();
  // The end marker of `then`'s output: random, so no probe output can contain it by accident.
  const end = opts.then === undefined ? undefined : `@@lock-read-end ${randomBytes(8).toString('hex')}`;
  const run = await transport.start(lockScript(opts.wait, opts.path, end ? { script: opts.then!, end } : undefined));
  let output: string | undefined;
  const state = await new Promise<string>((resolve) => {
    let buf = '';
    let locked = false;
    // `then`'s output may hold multi-byte characters split across chunks.
    const utf8 = new StringDecoder('utf8');
    const onData = (d: Buffer) => {
      buf += utf8.write(d);
      if (locked) return readThen();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const word = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (word === 'busy' && opts.wait) opts.onWait?.();
        else if (word === 'locked' && end) { locked = true; return readThen(); }
        else { run.stdout.off('data', onData); resolve(word); return; }
      }
    };
    const readThen = () => {
      const at = buf.indexOf(`\n${end}\n`);
      if (at < 0) return;
      output = buf.slice(0, at);
      run.stdout.off('data', onData);
      resolve('locked');
    };
    run.stdout.on('data', onData);
    // The holder ended early: without `then`'s end marker its output is not used.
    void run.done.then(() => resolve(locked ? 'locked-closed' : buf.trim() || 'closed'));
  });
  if (state === 'locked-closed') {
    run.kill();
    throw new TransportError(`the run lock on ${transport.name} ended while reading the host`, transport.name);
  }
  if (state !== 'locked') {
    run.kill();
    if (state === 'busy') throw new HostLockedError(transport.name);
    const why = state === 'noflock' ? 'flock(1) is not installed' : state === 'noopen' ? 'cannot open the lock file' : 'the lock command ended';
    throw new TransportError(`cannot take the run lock on ${transport.name}: ${why}`, transport.name);
  }
  run.stdout.resume();
  trace(transport.name, 'lock', t0);
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    const t1 = performance.now();
    try { run.stdin.end(); } catch { /* connection already gone: so is the lock */ }
    await Promise.race([run.done, new Promise((r) => setTimeout(r, 5000).unref())]);
    run.kill();
    trace(transport.name, 'unlock', t1);
  };
  return { release, output };
}
