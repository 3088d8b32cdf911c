// An exclusive lock file next to the state file: created with O_EXCL, holding "pid host". A lock
// left by a process that died on this machine is taken over; a live holder is waited for.
import { open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { HostwireError } from '../../errors.js';
import { PRIVATE_FILE_MODE } from '../../private-files.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `fn` while holding `<path>`; waits up to `timeoutMs` for another holder. */
export async function withLock<T>(path: string, fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const me = `${process.pid} ${hostname()}`;
  const deadline = Date.now() + timeoutMs;
  let wait = 10;
  for (;;) {
    try {
      const fh = await open(path, 'wx', PRIVATE_FILE_MODE);
      await fh.writeFile(`${me}\n`);
      await fh.close();
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new HostwireError('internal', `cannot create the lock file ${path}: ${(e as Error).message}`, { cause: e });
      const holder = (await readFile(path, 'utf8').catch(() => '')).trim();
      const [pid, host] = holder.split(' ');
      if (pid && host === hostname() && !alive(Number(pid))) {
        // The holder died without unlocking: take it over (only one taker wins the unlink+create race).
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) {
        throw new HostwireError('interrupted', `the state file is locked by ${holder || 'another process'} (${path}); waited ${Math.round(timeoutMs / 1000)} s. Remove the lock file if that process is gone.`);
      }
      await sleep(wait);
      wait = Math.min(wait * 2, 200);
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
