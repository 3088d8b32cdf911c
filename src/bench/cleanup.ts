// Whatever the bench starts (labs, light sshd hosts) is torn down however the bench ends: a signal,
// a reader that went away (`bench | head`: EPIPE on stdout), an uncaught error - not only on success.
const tasks = new Set<() => Promise<void>>();

export function onCleanup(fn: () => Promise<void>): () => void {
  tasks.add(fn);
  return () => void tasks.delete(fn);
}

let cleaning: Promise<void> | undefined;

/** Runs every registered teardown once (later calls wait for the same run). */
export function runCleanup(): Promise<void> {
  cleaning ??= Promise.allSettled([...tasks].map((t) => t())).then(() => undefined);
  return cleaning;
}

/** Tears down, then exits with `code`; the first reason wins. */
function endWith(why: string, code: number): void {
  if (cleaning) return;
  try { process.stderr.write(`\nbench: ${why}, cleaning up\n`); } catch { /* stderr gone too */ }
  void runCleanup().finally(() => process.exit(code));
}

export function installSignalCleanup(): void {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => endWith(sig, 130));
  // Nobody reads the results any more: stop (as SIGPIPE would), but take down what was started first.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => endWith(err.code === 'EPIPE' ? 'output closed (EPIPE)' : `stdout: ${err.message}`, 141));
  process.on('uncaughtException', (err) => endWith(`uncaught ${err.stack ?? err.message}`, 1));
}
