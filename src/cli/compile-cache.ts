// The bundled bin's start-up: runs the CommonJS bundle (dist/bundle/cli/cli.cjs) through vm.Script with
// a V8 code cache, so later runs skip parsing and compiling the ~4 MB bundle and the functions a run
// used (measured: the controller's CPU for a 3-host fallback no-op 0.46 -> 0.31 s; Node 20 has no
// module.enableCompileCache). The cache is code this process will execute, so it is used only from a
// directory and file of our own uid that nobody else can write (0700 / 0600, as the payload cache);
// anything odd and the bundle simply compiles as usual. HOSTWIRE_COMPILE_CACHE=0 turns it off.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** Where the caches live: $XDG_CACHE_HOME/hostwire/v8 or ~/.cache/hostwire/v8. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'hostwire', 'v8');
}

const ours = (st: Stats) => st.uid === process.geteuid?.() && (st.mode & 0o022) === 0;

/** The directory, made 0700 when missing; undefined when it (or its parent) is not ours alone. */
function trustedDir(dir: string, create: boolean): string | undefined {
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [path.dirname(dir), dir]) {
      const st = lstatSync(d);
      if (!st.isDirectory() || !ours(st)) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

function readTrusted(file: string): Buffer | undefined {
  try {
    const st = lstatSync(file);
    return st.isFile() && ours(st) ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** Caches kept: a few builds side by side (two checkouts, an upgrade) without evicting each other each run. */
const KEEP = 6;

/** Written beside, then renamed: a reader never sees half a cache; all but the newest KEEP are removed. */
function writeCache(dir: string, name: string, data: Buffer): void {
  const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path.join(dir, name));
  const caches = readdirSync(dir).filter((f) => f.endsWith('.bin')).map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs }));
  for (const { f } of caches.sort((a, b) => b.t - a.t).slice(KEEP)) unlinkSync(path.join(dir, f));
}

/**
 * An ASCII-only file read as latin1 is the same text as a one-byte string (~1 ms for the 4 MB bundle);
 * the UTF-8 decoder, given a single stray non-ASCII byte, makes a two-byte string of it (20-40 ms measured
 * on every start, and twice the memory V8 then scans). scripts/bundle.js keeps the bundle ASCII.
 */
export function decodeSource(raw: Buffer): string {
  return isAscii(raw) ? raw.toString('latin1') : raw.toString('utf8');
}

/**
 * Runs `bundleFile` (CommonJS) in this context. `variant` separates caches of different commands
 * (`run` and the rest), so a `--version` first never leaves `run` a cache without the engine in it.
 */
export function runBundle(bundleFile: string, variant: string, env: NodeJS.ProcessEnv = process.env): void {
  // A hashbang is valid only at the very start of a script: inside the wrapper it becomes a comment.
  const source = decodeSource(readFileSync(bundleFile)).replace(/^#!/, '//');
  const useCache = env.HOSTWIRE_COMPILE_CACHE !== '0';
  // The bundle's identity (its inode, size and mtime) and the runtime's: V8 checks flags and version
  // itself but only the source's length, so a rebuilt bundle must never meet an older cache.
  const st = statSync(bundleFile);
  const prefix = createHash('sha256').update(`${st.ino}:${st.size}:${st.mtimeMs}:${process.version}:${process.arch}`).digest('hex').slice(0, 20);
  const name = `${prefix}-${variant}.bin`;
  const dir = useCache ? trustedDir(compileCacheDir(env), false) : undefined;
  const cached = dir ? readTrusted(path.join(dir, name)) : undefined;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundleFile,
    cachedData: cached,
    ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
  });
  if (useCache && (!cached || script.cachedDataRejected)) {
    // At exit the cache also holds every function this command compiled on its way.
    process.once('exit', () => {
      const target = trustedDir(compileCacheDir(env), true);
      try {
        if (target) writeCache(target, name, script.createCachedData());
      } catch {
        // not kept: the next start compiles again
      }
    });
  }
  const module = { exports: {} };
  (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, path.dirname(bundleFile));
}
