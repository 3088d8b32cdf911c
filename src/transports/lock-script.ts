// The shell side of the per-host run lock (see lock.ts): where the lock file lives, how it is
// opened without following anything a local user planted, who holds it, and the holder's lease.
import { hostname, userInfo } from 'node:os';
import { shellQuote } from './quote.js';

/** Exit status of a holder whose lease ran out (no heartbeat from the controller in time). */
export const LEASE_EXPIRED_EXIT = 76;

export interface LockScriptOptions {
  /** A lock file given in full (tests); only the file itself is checked. */
  path?: string;
  /** The file's name inside the user's private lock directory (default run.lock). */
  file?: string;
  /** Written into the lock file once held; shown to runs that find it busy. */
  holder: string;
  /** The holder ends (releasing the lock) when no heartbeat byte came for this many seconds. */
  leaseSec: number;
  /** Runs right after the lock is taken; `end` is printed after its output. */
  then?: { script: string; end: string };
}

/** Who we are, as another run will read it: controller host, pid, user, start time (printable only). */
export function holderIdentity(now = new Date()): string {
  let user = 'unknown';
  try { user = userInfo().username; } catch { /* no passwd entry */ }
  return printable(`hostwire on ${hostname()} pid ${process.pid} user ${user} since ${now.toISOString()}`);
}

/** Host output is data: control characters never reach a terminal, and it stays short. */
export function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

// The directory: /run/hostwire for root (only root writes /run: `-O /run` is a builtin test, no
// `id` process); else $XDG_RUNTIME_DIR/hostwire when that is the user's own, else ~/.hostwire.
// Never /tmp: any local user could plant a symlink or the file itself there. The directory is
// created 0700 and must be a real directory owned by us, so no other user can swap what is in it;
// the file must then be absent, or a regular file (not a symlink) owned by us.
function lockDirLines(file: string): string[] {
  return [
    'if [ -O /run ] && [ -w /run ]; then d=/run/hostwire',
    'elif [ -n "$XDG_RUNTIME_DIR" ] && [ -d "$XDG_RUNTIME_DIR" ] && [ ! -L "$XDG_RUNTIME_DIR" ] && [ -O "$XDG_RUNTIME_DIR" ]; then d=$XDG_RUNTIME_DIR/hostwire',
    'else d=$HOME/.hostwire; fi',
    '[ -d "$d" ] || mkdir -m 0700 -- "$d" 2>/dev/null',
    '{ [ -d "$d" ] && [ ! -L "$d" ] && [ -O "$d" ]; } || { echo "unsafe $d"; exit 71; }',
    `f=$d/${shellQuote(file)}`,
  ];
}

// The holder keeps the lock while the controller's heartbeat bytes arrive: on EOF (released) it
// exits 0; after leaseSec seconds without a byte it exits LEASE_EXPIRED_EXIT. Why a lease: a
// partition leaves a session sshd never notices (no ClientAlive), whose holder would keep the
// lock forever; now it dies within the lease, so the reconnecting run and every later run get the
// lock within a bounded time. bash reads with a timeout itself; other shells use timeout(1) + head
// per heartbeat (the lock's fd closed in them, so no child can outlive the holder with the lock).
function holderLines(leaseSec: number): string[] {
  const expired = `exit ${LEASE_EXPIRED_EXIT}`;
  return [
    'if [ -n "$BASH_VERSION" ]; then',
    `  while :; do read -r -n 1 -t ${leaseSec} _ || { [ $? -gt 128 ] && ${expired}; exit 0; }; done`,
    'else',
    `  while :; do c=$(timeout ${leaseSec} head -c 1 9>&-); r=$?; [ -n "$c" ] && continue; [ $r = 124 ] && ${expired}; exit 0; done`,
    'fi',
  ];
}

export function lockScript(o: LockScriptOptions): string {
  const busy = 'hw_by=; IFS= read -r hw_by <"$f" 2>/dev/null; echo "busy $hw_by"';
  return [
    'umask 077',
    ...(o.path ? [`f=${shellQuote(o.path)}`] : lockDirLines(o.file ?? 'run.lock')),
    'if [ -L "$f" ] || { [ -e "$f" ] && ! { [ -f "$f" ] && [ -O "$f" ]; }; }; then echo "unsafe $f"; exit 71; fi',
    'command -v flock >/dev/null 2>&1 || { echo noflock; exit 127; }',
    // Created exclusively (noclobber: O_EXCL, never through a symlink), 0600 by the umask.
    'set -C; [ -e "$f" ] || true 2>/dev/null >"$f"; set +C',
    'exec 9>>"$f" || { echo noopen; exit 71; }',
    // Never a blocking flock: a waiter the controller gave up on would linger on the host.
    `if ! flock -n 9; then ${busy}; exit 75; fi`,
    `printf '%s host pid %s\\n' ${shellQuote(o.holder)} "$$" >"$f"`,
    'echo locked',
    // The read must not eat the heartbeats (stdin) nor pass the lock's fd to anything it starts.
    ...(o.then ? ['{', o.then.script, '} </dev/null 9>&-', `printf '\\n%s\\n' '${o.then.end}'`] : []),
    ...holderLines(o.leaseSec),
  ].join('\n');
}
