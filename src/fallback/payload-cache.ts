// The controller keeps each payload it built (~/.cache/hostwire/payloads/, 0700, files 0600) with
// the size and mtime of every file it was made from (the modules and the module_utils ansible-core
// found for them): while none of them changed, a later run takes the payload from there and skips
// starting ansible-core's Python (~0.7 s). A change to any of them, to ansible-core's version, or to
// the folders searched makes a new key or fails the check, and the payload is built again.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { mkdirPrivate, writePrivateFile } from '../private-files.js';
import type { Payload } from './payload-types.js';

interface SourceStamp {
  path: string;
  size: number;
  mtimeMs: number;
}

interface Stored {
  hash: string;
  zip: string;
  files: string[];
  sources: SourceStamp[];
}

export function payloadCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'hostwire', 'payloads');
}

const keyFile = (dir: string, key: unknown) => path.join(dir, `${createHash('sha256').update(JSON.stringify(key)).digest('hex')}.json`);

async function stamp(p: string): Promise<SourceStamp | undefined> {
  try {
    const s = await stat(p);
    return { path: p, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

function stampSync(p: string): SourceStamp | undefined {
  try {
    const s = statSync(p);
    return { path: p, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * The payload stored under `key` if every file it was made from is unchanged. Read synchronously: a
 * few dozen stats cost ~1 ms of CPU, while one await per file on a loaded machine cost a wake-up each
 * (0.5-1.2 s in all at load ~20, with the run's first module call waiting on it).
 */
export async function readCachedPayload(dir: string, key: unknown): Promise<Payload | undefined> {
  let stored: Stored;
  try {
    stored = JSON.parse(readFileSync(keyFile(dir, key), 'utf8')) as Stored;
  } catch {
    return undefined;
  }
  for (const s of stored.sources ?? []) {
    const now = stampSync(s.path);
    if (!now || now.size !== s.size || now.mtimeMs !== s.mtimeMs) return undefined;
  }
  const zip = Buffer.from(stored.zip, 'base64');
  if (createHash('sha256').update(zip).digest('hex') !== stored.hash) return undefined;
  // Marks it used: the eviction below removes the least recently used.
  try {
    const now = new Date();
    utimesSync(keyFile(dir, key), now, now);
  } catch {
    // a read-only cache still serves
  }
  return { hash: stored.hash, zip, files: stored.files };
}

/** Payloads kept: every playbook and module set makes its own (~130 KB each); the least recently used go. */
export const PAYLOADS_KEPT = 40;

function evictOld(dir: string): void {
  const files = readdirSync(dir).filter((f) => /^[0-9a-f]{64}\.json$/.test(f)).map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs }));
  for (const { f } of files.sort((a, b) => b.t - a.t).slice(PAYLOADS_KEPT)) unlinkSync(path.join(dir, f));
}

/** Keeps a payload for later runs; a controller whose cache cannot be written just builds again. */
export async function writeCachedPayload(dir: string, key: unknown, payload: Payload, sources: string[]): Promise<void> {
  try {
    const stamps = (await Promise.all(sources.map(stamp))).filter((s): s is SourceStamp => s !== undefined);
    await mkdirPrivate(dir);
    const stored: Stored = { hash: payload.hash, zip: payload.zip.toString('base64'), files: payload.files, sources: stamps };
    await writePrivateFile(keyFile(dir, key), JSON.stringify(stored));
    evictOld(dir);
  } catch {
    // not kept: the next run builds it again
  }
}
