// Reconnects against a real sshd: an explicit reconnect(), a transparent one after the server
// killed the session, keepalive noticing a hung (SIGSTOPped) session fast, and the run lock taken
// again by an onReconnect listener (the lock lives on the connection, so it died with it).
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { acquireHostLock } from '../../src/transports/lock.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

let sshd: SshdFixture;
test.before(async () => { sshd = await startSshd(); });
test.after.always(async () => { await sshd?.stop(); });

const signalAll = (pids: number[], sig: NodeJS.Signals) => { for (const p of pids) { try { process.kill(p, sig); } catch { /* gone */ } } };
const until = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return cond();
};

test.serial('reconnect() opens a fresh connection and tells the listeners; the first connect does not', async (t) => {
  const ssh = sshTo(sshd);
  t.teardown(() => ssh.close());
  let calls = 0;
  ssh.onReconnect(() => { calls++; });
  await ssh.connect();
  t.is(calls, 0);
  t.is((await ssh.exec('echo one')).stdout, 'one\n');
  await ssh.reconnect();
  t.is(ssh.stats.connects, 2);
  t.is(calls, 1);
  t.is((await ssh.exec('echo two')).stdout, 'two\n');
});

test.serial('a session killed by the server is replaced transparently at the next exec', async (t) => {
  const ssh = sshTo(sshd);
  t.teardown(() => ssh.close());
  await ssh.connect();
  const before = sshd.sessionPids();
  t.true(before.length > 0);
  signalAll(before, 'SIGKILL');
  t.true(await until(() => !ssh.connected, 5000));
  t.is((await ssh.exec('echo back')).stdout, 'back\n');
  t.is(ssh.stats.connects, 2);
});

test.serial('keepalive notices a hung session within a few intervals; the lock is re-taken once the old session is gone', async (t) => {
  const ssh = sshTo(sshd, { keepaliveIntervalMs: 300, keepaliveCountMax: 2 });
  t.teardown(() => ssh.close());
  const path = `${sshd.dir}/lock-reconnect`;
  await ssh.connect();
  let { release } = await acquireHostLock(ssh, { path });
  let waited = 0;
  ssh.onReconnect(async () => { ({ release } = await acquireHostLock(ssh, { waitSec: 60, path, onWait: () => waited++ })); });
  const hung = sshd.sessionPids();
  signalAll(hung, 'SIGSTOP');
  t.teardown(() => signalAll(hung, 'SIGKILL'));
  t.true(await until(() => !ssh.connected, 4000), 'keepalive did not detect the hung session');
  // The hung session's lock holder lives on until the server drops it: the new connection waits for it.
  const exec = ssh.exec('echo alive');
  t.true(await until(() => waited === 1, 5000));
  signalAll(hung, 'SIGKILL');
  t.is((await exec).stdout, 'alive\n');
  // The new connection holds the lock: a second taker is refused.
  const other = sshTo(sshd);
  t.teardown(() => other.close());
  await t.throwsAsync(acquireHostLock(other, { path }), { message: /locked by another hostwire run/ });
  await release();
});

test.serial('a partitioned session never noticed by sshd: its lock holder ends with its lease, the lock is re-taken in bounded time', async (t) => {
  const ssh = sshTo(sshd, { keepaliveIntervalMs: 300, keepaliveCountMax: 2 });
  t.teardown(() => ssh.close());
  const path = `${sshd.dir}/lock-lease`;
  await ssh.connect();
  let { release } = await acquireHostLock(ssh, { path, leaseSec: 2 });
  let relocked = 0;
  ssh.onReconnect(async () => { ({ release } = await acquireHostLock(ssh, { path, leaseSec: 2, waitSec: 30 })); relocked++; });
  // Freeze only the session's sshd processes: the path is dead (no byte passes either way), but
  // the holder shell on the host lives on and sshd never closes the session (no ClientAlive).
  const frozen = sshd.sessionPids().filter((p) => readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'sshd');
  const holders = sshd.sessionPids().filter((p) => !frozen.includes(p));
  t.true(frozen.length > 0 && holders.length > 0);
  signalAll(frozen, 'SIGSTOP');
  t.teardown(() => signalAll(frozen, 'SIGKILL'));
  const t0 = Date.now();
  t.true(await until(() => !ssh.connected, 4000), 'keepalive did not detect the dead path');
  t.is((await ssh.exec('echo alive')).stdout, 'alive\n');
  t.is(relocked, 1);
  // Bounded by the lease (2 s) plus the retry pause: without the lease this waited until the deadline.
  t.true(Date.now() - t0 < 12_000, `re-locked after ${Date.now() - t0} ms`);
  t.false(holders.some((p) => existsSync(`/proc/${p}`) && !readFileSync(`/proc/${p}/stat`, 'utf8').includes(') Z')), 'the old holder ended by itself');
  await release();
});

test.serial('a reconnect listener whose new connection dies too opens the next one itself, without waiting for its own reconnect', async (t) => {
  const ssh = sshTo(sshd);
  t.teardown(() => ssh.close());
  await ssh.connect();
  let calls = 0;
  ssh.onReconnect(async () => {
    // The first time, the fresh connection dies under the listener (as a relock's channel timing out on a host
    // moving its address): its exec must open another connection, not await the reconnect it is part of.
    if (calls++ === 0) {
      signalAll(sshd.sessionPids(), 'SIGKILL');
      t.true(await until(() => !ssh.connected, 5000));
    }
    t.is((await ssh.exec('echo relocked')).stdout, 'relocked\n');
  });
  // A timer that keeps the process alive: before the fix nothing else did, and the worker ended mid-test.
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<string>((r) => { timer = setTimeout(() => r('hangs'), 30_000); });
  t.is(await Promise.race([ssh.reconnect().then(() => 'done'), hang]), 'done');
  clearTimeout(timer);
  t.is(calls, 1, 'the listener runs once: the connection it opened itself is not another reconnect');
  t.is(ssh.stats.connects, 3);
  t.is((await ssh.exec('echo after')).stdout, 'after\n');
});
