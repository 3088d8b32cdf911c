// The run lock's file is private and never followed through anything a local user planted; a busy
// lock names its holder; every wait has a deadline and can be interrupted. Real sshd and real
// flock(1); the unprivileged cases run the lock as user nobody (setpriv) on this machine.
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireHostLock, HostLockedError, LockInterruptedError } from '../../src/transports/lock.js';
import { LocalTransport } from '../../src/transports/local.js';
import { LEASE_EXPIRED_EXIT, lockScript } from '../../src/transports/lock-script.js';
import { shellQuote } from '../../src/transports/quote.js';
import type { RunningCommand } from '../../src/transports/streaming.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

let sshd: SshdFixture;
test.before(async () => { sshd = await startSshd(); });
test.after.always(async () => { await sshd?.stop(); });

const NOBODY = 65534;
const unique = () => `h3-test-${process.pid}-${Math.random().toString(36).slice(2)}.lock`;

/** The local transport, but every command runs as user nobody with the given environment. */
class NobodyTransport extends LocalTransport {
  constructor(private readonly env: Record<string, string>) { super('nobody-host'); }
  override start(command: string): Promise<RunningCommand> {
    const env = Object.entries(this.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    return super.start(`exec setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups env -i PATH=/usr/bin:/bin ${env} /bin/sh -c ${shellQuote(command)}`);
  }
}

/** A home directory owned by nobody, inside a root-only temp dir... made traversable for nobody. */
function nobodyHome(t: { teardown(fn: () => void): void }): string {
  const base = mkdtempSync(join(tmpdir(), 'h3-lock-home-'));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  execFileSync('chmod', ['0755', base]);
  const home = join(base, 'home');
  mkdirSync(home, { mode: 0o755 });
  chownSync(home, NOBODY, NOBODY);
  return home;
}

const modeOf = (p: string) => (statSync(p).mode & 0o777).toString(8);

test('root: the lock lives in /run/hostwire (0700), its file is 0600 and owned by root, and names its holder', async (t) => {
  const a = sshTo(sshd);
  const b = sshTo(sshd);
  t.teardown(async () => { await a.close(); await b.close(); });
  const file = unique();
  t.teardown(() => rmSync(`/run/hostwire/${file}`, { force: true }));
  const { release } = await acquireHostLock(a, { file });
  t.is(modeOf('/run/hostwire'), '700');
  t.is(modeOf(`/run/hostwire/${file}`), '600');
  t.is(statSync(`/run/hostwire/${file}`).uid, 0);
  const content = readFileSync(`/run/hostwire/${file}`, 'utf8');
  t.regex(content, new RegExp(`^hostwire on ${hostname()} pid ${process.pid} user root since \\d{4}-\\d\\d-\\d\\dT.* host pid \\d+\\n$`));
  const e = await t.throwsAsync(acquireHostLock(b, { file }), { instanceOf: HostLockedError });
  t.true(e!.message.includes(`(held by hostwire on ${hostname()} pid ${process.pid} user root since`), e!.message);
  await release();
});

test('a symlink or a foreign file at the lock path is refused, and its target is never touched', async (t) => {
  const a = sshTo(sshd);
  t.teardown(() => a.close());
  const victim = join(sshd.dir, 'victim');
  writeFileSync(victim, 'precious\n', { mode: 0o644 });
  const link = join(sshd.dir, 'lock-link');
  symlinkSync(victim, link);
  const e = await t.throwsAsync(acquireHostLock(a, { path: link }));
  t.regex(e!.message, /refusing the lock file .*lock-link: it must be a regular file \(not a symlink\) owned by the SSH user/);
  t.is(readFileSync(victim, 'utf8'), 'precious\n');
  t.is(modeOf(victim), '644');
  const foreign = join(sshd.dir, 'lock-foreign');
  writeFileSync(foreign, '');
  chownSync(foreign, NOBODY, NOBODY);
  await t.throwsAsync(acquireHostLock(a, { path: foreign }), { message: /refusing the lock file/ });
});

test('a user who cannot write /run locks in ~/.hostwire (0700, created), never in /tmp', async (t) => {
  const home = nobodyHome(t);
  const l = new NobodyTransport({ HOME: home });
  const { release } = await acquireHostLock(l, {});
  const st = lstatSync(join(home, '.hostwire'));
  t.true(st.isDirectory());
  t.is(st.uid, NOBODY);
  t.is(modeOf(join(home, '.hostwire')), '700');
  t.is(modeOf(join(home, '.hostwire', 'run.lock')), '600');
  t.regex(readFileSync(join(home, '.hostwire', 'run.lock'), 'utf8'), /^hostwire on /);
  await t.throwsAsync(acquireHostLock(new NobodyTransport({ HOME: home }), {}), { instanceOf: HostLockedError });
  await release();
  t.false(existsSync('/tmp/hostwire.lock') && statSync('/tmp/hostwire.lock').mtimeMs > Date.now() - 60_000, 'nothing written to /tmp');
});

test('an unprivileged user: a planted symlink, or a lock directory owned by someone else, is refused', async (t) => {
  const home = nobodyHome(t);
  const victim = join(home, 'victim');
  writeFileSync(victim, 'keep\n', { mode: 0o644 });
  chownSync(victim, NOBODY, NOBODY);
  mkdirSync(join(home, '.hostwire'), { mode: 0o700 });
  chownSync(join(home, '.hostwire'), NOBODY, NOBODY);
  symlinkSync(victim, join(home, '.hostwire', 'run.lock'));
  await t.throwsAsync(acquireHostLock(new NobodyTransport({ HOME: home }), {}), { message: /refusing the lock file .*run\.lock/ });
  t.is(readFileSync(victim, 'utf8'), 'keep\n');
  // $XDG_RUNTIME_DIR owned by another user is not used; a lock dir owned by another user is refused.
  const other = nobodyHome(t);
  mkdirSync(join(other, '.hostwire'), { mode: 0o777 });
  chownSync(join(other, '.hostwire'), 0, 0);
  execFileSync('chmod', ['0777', join(other, '.hostwire')]);
  const e = await t.throwsAsync(acquireHostLock(new NobodyTransport({ HOME: other, XDG_RUNTIME_DIR: '/run' }), {}));
  t.regex(e!.message, /refusing the lock file .*\.hostwire/);
  t.false(existsSync(join(other, '.hostwire', 'run.lock')));
});

test('a waiting taker gives up at its deadline, or at once when interrupted, and is told who holds the lock', async (t) => {
  const a = sshTo(sshd);
  const b = sshTo(sshd);
  t.teardown(async () => { await a.close(); await b.close(); });
  const path = join(sshd.dir, 'lock-wait');
  const { release } = await acquireHostLock(a, { path });
  let holder = '';
  const t0 = Date.now();
  const e = await t.throwsAsync(acquireHostLock(b, { path, waitSec: 1, onWait: (h) => { holder = h; } }), { instanceOf: HostLockedError });
  t.regex(e!.message, /gave up waiting/);
  t.true(Date.now() - t0 < 10_000);
  t.true(holder.startsWith(`hostwire on ${hostname()} pid ${process.pid}`), holder);
  const abort = new AbortController();
  const waiting = acquireHostLock(b, { path, waitSec: 600, signal: abort.signal, onWait: () => abort.abort() });
  const t1 = Date.now();
  await t.throwsAsync(waiting, { instanceOf: LockInterruptedError });
  t.true(Date.now() - t1 < 5000);
  await release();
  // The interrupted waiter left nothing holding the lock.
  const again = await acquireHostLock(b, { path, waitSec: 5 });
  await again.release();
});

for (const shell of ['/bin/sh', '/bin/bash']) {
  test(`the holder (${shell}) keeps the lock while heartbeats come, ends at EOF, and ends by itself when they stop`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'h3-lease-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const start = (i: number) => {
      const p = spawn(shell, ['-c', lockScript({ path: join(dir, `l${i}`), holder: 'test', leaseSec: 1 })], { stdio: ['pipe', 'pipe', 'inherit'] });
      p.stdout.resume();
      t.teardown(() => { p.stdin.destroy(); if (p.exitCode === null) p.kill('SIGKILL'); });
      return { p, exit: new Promise<number | null>((r) => p.on('exit', (c) => r(c))) };
    };
    // Heartbeats every 300 ms for 2.5 s (more than two leases), then EOF: a clean 0.
    const beating = start(1);
    const beat = setInterval(() => beating.p.stdin.write('.'), 300);
    await new Promise((r) => setTimeout(r, 2500));
    t.is(beating.p.exitCode, null, 'still holding while heartbeats come');
    clearInterval(beat);
    beating.p.stdin.end();
    t.is(await beating.exit, 0);
    // No heartbeat at all: the lease runs out (exit 76) within about a second.
    const silent = start(2);
    const t0 = Date.now();
    t.is(await silent.exit, LEASE_EXPIRED_EXIT);
    t.true(Date.now() - t0 < 4000);
    silent.p.stdin.destroy();
  });
}

// Serial: it freezes the whole process, which would stop the heartbeats of concurrent tests too.
test.serial('a holder whose heartbeats stopped while the run still holds the lock (a frozen controller) is reported lost', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'h3-lost-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let lost = 0;
  const lock = await acquireHostLock(new LocalTransport('frozen'), { path: join(dir, 'lock'), leaseSec: 1, onLost: () => { lost++; } });
  // Freeze this process (no timer runs, so no heartbeat) for more than two leases.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);
  for (let i = 0; i < 50 && lost === 0; i++) await new Promise((r) => setTimeout(r, 100));
  t.is(lost, 1);
  // The lock is really free: another taker gets it at once.
  const other = await acquireHostLock(new LocalTransport('frozen'), { path: join(dir, 'lock') });
  await other.release();
  await lock.release();
});
