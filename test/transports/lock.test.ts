import test from 'ava';
import { acquireHostLock, HostLockedError } from '../../src/transports/lock.js';
import { LocalTransport } from '../../src/transports/local.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

let sshd: SshdFixture;
test.before(async () => { sshd = await startSshd(); });
test.after.always(async () => { await sshd?.stop(); });

test.serial('a second run waits for the lock, or fails at once with wait:false', async (t) => {
  const path = `${sshd.dir}/lock-a`;
  const a = sshTo(sshd, { name: 'node-a' });
  const b = sshTo(sshd, { name: 'node-a' });
  t.teardown(async () => { await a.close(); await b.close(); });
  const { release: releaseA } = await acquireHostLock(a, { waitSec: 60, path });
  const e = await t.throwsAsync(acquireHostLock(b, { path }), { instanceOf: HostLockedError });
  t.regex(e!.message, /host node-a is locked by another hostwire run/);
  let waited = 0;
  let got = false;
  const pending = acquireHostLock(b, { waitSec: 60, path, onWait: () => waited++ }).then((r) => { got = true; return r.release; });
  // The waiter reports once that it waits (poll: a loaded machine may take a while to get there).
  for (let i = 0; i < 100 && waited === 0; i++) await new Promise((r) => setTimeout(r, 100));
  t.is(waited, 1);
  t.false(got);
  await releaseA();
  const releaseB = await pending;
  t.true(got);
  await releaseB();
  t.is(a.stats.connects, 1);
});

test.serial('the lock is released by the kernel when the holding connection dies', async (t) => {
  const path = `${sshd.dir}/lock-b`;
  const a = sshTo(sshd);
  const b = sshTo(sshd);
  t.teardown(async () => { await a.close(); await b.close(); });
  await acquireHostLock(a, { waitSec: 60, path });
  const sessionPid = Number((await a.exec('echo $PPID')).stdout.trim());
  const pending = acquireHostLock(b, { waitSec: 60, path });
  process.kill(sessionPid, 'SIGKILL');
  const { release } = await pending;
  await release();
  t.pass();
});

test.serial('the lock works over the local transport too', async (t) => {
  const path = `${sshd.dir}/lock-c`;
  const l1 = new LocalTransport('local1');
  const l2 = new LocalTransport('local1');
  const { release: r1 } = await acquireHostLock(l1, { waitSec: 60, path });
  await t.throwsAsync(acquireHostLock(l2, { path }), { message: /local1 is locked/ });
  await r1();
  const { release: r2 } = await acquireHostLock(l2, { path });
  await r2();
});

test.serial('a read script rides on the lock exec: its output comes back, the lock is held, one exec in all', async (t) => {
  const path = `${sshd.dir}/lock-d`;
  const a = sshTo(sshd);
  const b = sshTo(sshd);
  t.teardown(async () => { await a.close(); await b.close(); });
  const execs = a.stats.execs;
  // Output without a trailing newline and a line that looks like a marker both come back intact.
  const { release, output } = await acquireHostLock(a, { waitSec: 60, path, then: "echo first; echo '@@lock-read-end'; printf 'no newline'" });
  t.is(output, 'first\n@@lock-read-end\nno newline');
  t.is(a.stats.execs - execs, 1);
  await t.throwsAsync(acquireHostLock(b, { path, then: 'echo never' }), { instanceOf: HostLockedError });
  await release();
  const again = await acquireHostLock(b, { path });
  t.is(again.output, undefined);
  await again.release();
});

test.serial('the read on the lock comes back whole when multi-byte characters straddle chunks', async (t) => {
  const path = `${sshd.dir}/lock-e`;
  const a = sshTo(sshd);
  t.teardown(() => a.close());
  // 32 KB of two-byte characters after one ASCII byte, written at once: SSH data chunks (even sizes)
  // split characters.
  const { release, output } = await acquireHostLock(a, { waitSec: 60, path, then: "s=é; i=0; while [ $i -lt 14 ]; do s=$s$s; i=$((i+1)); done; printf 'x%s' \"$s\"" });
  t.is(output, `x${'é'.repeat(2 ** 14)}`);
  await release();
});

test.serial('a large first read on the lock comes back in linear time (40 MB in seconds, not a minute)', async (t) => {
  const path = `${sshd.dir}/lock-f`;
  const a = sshTo(sshd);
  t.teardown(() => a.close());
  const size = 40 * 1024 * 1024;
  const t0 = Date.now();
  const { release, output } = await acquireHostLock(a, { path, then: `head -c ${size} /dev/zero | tr '\\0' x; echo; echo end` });
  const ms = Date.now() - t0;
  t.is(output!.length, size + 5);
  t.true(output!.endsWith('x\nend\n'));
  // Measured before the reader was linear: 54 s at 40 MB (a rescan of the whole buffer per chunk).
  t.true(ms < 15_000, `took ${ms} ms`);
  t.log(`40 MB first read: ${ms} ms`);
  await release();
});
