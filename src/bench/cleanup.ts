// Whatever the bench starts (labs, light sshd hosts) is torn down on SIGINT/SIGTERM too.
const tasks = new Set<() => Promise<void>>();

export function onCleanup(fn: () => Promise<void>): () => void {
  tasks.add(fn);
  return () => void tasks.delete(fn);
}

export function installSignalCleanup(): void {
  let running = false;
  const handler = (sig: NodeJS.Signals) => {
    if (running) return;
    running = true;
    process.stderr.write(`\nbench: ${sig}, cleaning up\n`);
    void Promise.allSettled([...tasks].map((t) => t())).finally(() => process.exit(130));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
