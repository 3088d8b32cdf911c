// The bin's V8 code cache (src/cli/compile-cache.ts), through the real bundled bin: made private on the
// first start, used as is by the next, ignored when anyone else could have written it, replaced when
// V8 rejects it, never made with HOSTWIRE_COMPILE_CACHE=0.
import test from 'ava';
import { isAscii } from 'node:buffer';
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string; bin: { hostwire: string } };
const BIN = path.join(root, pkg.bin.hostwire);

function version(cacheHome: string, extra: Record<string, string> = {}) {
  return new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [BIN, '--version'], { env: { ...process.env, XDG_CACHE_HOME: cacheHome, ...extra }, timeout: 60_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout.trim()))));
}

function tempHome(t: { teardown: (f: () => void) => void }): { home: string; dir: string; files: () => string[] } {
  const home = mkdtempSync(path.join(tmpdir(), 'hw-v8cache-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const dir = path.join(home, 'hostwire', 'v8');
  return { home, dir, files: () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin')) : []) };
}

test('the first start writes a private cache, the next uses it unchanged', async (t) => {
  const { home, dir, files } = tempHome(t);
  t.is(await version(home), pkg.version);
  t.is(files().length, 1);
  const file = path.join(dir, files()[0]!);
  t.regex(files()[0]!, /^[0-9a-f]{20}-other\.bin$/);
  t.is(statSync(dir).mode & 0o777, 0o700);
  t.is(statSync(file).mode & 0o777, 0o600);
  const before = statSync(file).mtimeMs;
  t.is(await version(home), pkg.version);
  t.is(statSync(file).mtimeMs, before, 'an accepted cache is not written again');
});

test('a cache V8 rejects is replaced; the command still works', async (t) => {
  const { home, dir, files } = tempHome(t);
  await version(home);
  const file = path.join(dir, files()[0]!);
  writeFileSync(file, Buffer.alloc(4096, 7));
  t.is(await version(home), pkg.version);
  t.notDeepEqual(readFileSync(file), Buffer.alloc(4096, 7));
});

test('a cache others could have written is neither used nor written', async (t) => {
  const { home, dir, files } = tempHome(t);
  await version(home);
  const file = path.join(dir, files()[0]!);
  // Group/world-writable directory: nothing read, nothing written there.
  rmSync(file);
  chmodSync(dir, 0o777);
  t.is(await version(home), pkg.version);
  t.deepEqual(files(), []);
  // A file owned by another user, in a private directory: ignored (and so replaced by ours).
  chmodSync(dir, 0o700);
  writeFileSync(file, Buffer.alloc(16, 1), { mode: 0o600 });
  chownSync(file, 65534, 65534);
  t.is(await version(home), pkg.version);
  t.is(statSync(file).uid, process.geteuid!());
});

test('HOSTWIRE_COMPILE_CACHE=0 writes nothing', async (t) => {
  const { home, dir } = tempHome(t);
  t.is(await version(home, { HOSTWIRE_COMPILE_CACHE: '0' }), pkg.version);
  t.false(existsSync(dir));
});

test('writing a cache keeps the newest six, its own among them', async (t) => {
  const { home, dir, files } = tempHome(t);
  await version(home);
  const own = files()[0]!;
  rmSync(path.join(dir, own));
  for (let i = 0; i < 8; i++) {
    const f = path.join(dir, `${String(i).padStart(20, '0')}-other.bin`);
    writeFileSync(f, 'old', { mode: 0o600 });
    utimesSync(f, 1_000_000 + i, 1_000_000 + i);
  }
  await version(home);
  const left = files();
  t.is(left.length, 6);
  t.true(left.includes(own));
  t.false(left.includes(`${'0'.repeat(20)}-other.bin`), 'the oldest went');
});

test('the bundle is ASCII, so the bin reads it as a one-byte string; decodeSource equals UTF-8 decoding', async (t) => {
  const { decodeSource } = await import('../../src/cli/compile-cache.js');
  const bundle = readFileSync(path.join(path.dirname(BIN), 'cli.cjs'));
  t.true(isAscii(bundle), 'scripts/bundle.js escapes what esbuild kept (comments from packages)');
  for (const text of ['plain ascii', 'a comment with \u00a5 and \u{1F600}']) t.is(decodeSource(Buffer.from(text, 'utf8')), text);
});
