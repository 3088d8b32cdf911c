// Files hostwire writes on the controller (retry file, HTML report, .hostwire/ state, lab state)
// can hold diffs, host names and secrets' neighbours: they are created 0600 and their folders 0700,
// whatever the umask, and replaced atomically (a fresh 0600 temp file renamed over the old one, so
// an old world-readable file does not keep its mode). Bottom floor, like errors.ts: any layer may use it.
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

const tempFor = (path: string) => `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

export function writePrivateFileSync(path: string, content: string | Buffer): void {
  const tmp = tempFor(path);
  try {
    writeFileSync(tmp, content, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    chmodSync(tmp, PRIVATE_FILE_MODE);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export async function writePrivateFile(path: string, content: string | Buffer): Promise<void> {
  const tmp = tempFor(path);
  try {
    await writeFile(tmp, content, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    await chmod(tmp, PRIVATE_FILE_MODE);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Creates `dir` (and missing parents) 0700; a folder that already exists keeps its mode. */
export function mkdirPrivateSync(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (created !== undefined) chmodSync(dir, PRIVATE_DIR_MODE);
}

export async function mkdirPrivate(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (created !== undefined) await chmod(dir, PRIVATE_DIR_MODE);
}
