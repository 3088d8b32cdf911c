// Small filesystem helpers: atomic writes, a pid lock file, and mounts found from /proc/self/mountinfo.
import { chmod, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isAlive, run, sleep } from './run.js';

export async function writeFileAtomic(path: string, content: string, mode = 0o644): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, content, { mode });
  await chmod(tmp, mode); // a leftover temp keeps its old mode otherwise
  await rename(tmp, path);
}

/** Run `fn` holding an exclusive lock file (holds our pid; a dead holder's lock is taken over). */
export async function withLock<T>(path: string, fn: () => Promise<T>, timeoutMs = 15 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (!holder || !(await isAlive(holder))) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${path} held by pid ${holder}`);
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}

/** Mount points from mountinfo text (field 5, octal escapes decoded). */
export function parseMountPoints(mountinfo: string): string[] {
  return mountinfo
    .split('\n')
    .filter(Boolean)
    .map((l) => (l.split(' ')[4] ?? '').replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
}

export async function mountsUnder(dir: string): Promise<string[]> {
  const text = await readFile('/proc/self/mountinfo', 'utf8');
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return parseMountPoints(text).filter((m) => m === dir || m.startsWith(prefix));
}

/** Unmount everything at or below `dir`, deepest first; lazy unmount when busy. */
export async function unmountUnder(dir: string): Promise<void> {
  // A few rounds: one mount point can hold stacked mounts.
  for (let round = 0; round < 5; round++) {
    const mounts = [...new Set(await mountsUnder(dir))].sort((a, b) => b.length - a.length);
    if (!mounts.length) return;
    for (const m of mounts) {
      const r = await run('umount', [m], { check: false });
      if (r.code !== 0) await run('umount', ['-l', m], { check: false });
    }
  }
}
