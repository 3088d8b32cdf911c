// A lab belongs to the test worker that brought it up: when the worker dies without its teardown (ava's
// timeout kills it, or SIGKILL), the lab's watchdog removes the lab; when the watchdog is gone too, the next
// `lab up` sweeps it. Real nspawn labs, real ava, real kills.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { labDown, type LabState } from '../../src/lab/index.js';
import { OWNER_ENV, ownerAlive, processStartTicks, requestedOwner, sweepOrphanedLabs } from '../../src/lab/owner.js';
import { readState } from '../../src/lab/state.js';
import { isAlive } from '../../src/lab/run.js';
import { testLabName } from '../helpers/lab-name.js';
import { assertLabGoneWithin, killChild, ownedLabInChild } from '../helpers/lab-gone.js';

// This run's names (test/helpers/lab-name.ts), fixed before any child takes one.
const [BD1, BD2, BD3] = ['bd1', 'bd2', 'bd3'].map(testLabName) as [string, string, string];
const LABS = [BD1, BD2, BD3];
const dir = mkdtempSync(path.join(tmpdir(), 'hw-owner-'));
test.after.always(async () => {
  for (const l of LABS) await labDown(l).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const hostPids = (s: LabState): number[] => s.hosts.flatMap((h) => [h.nspawnPid, h.initPid].filter((p): p is number => Boolean(p)));
const repo = new URL('../../../', import.meta.url).pathname;

test('owner bookkeeping: start time tells a reused pid apart; the environment names the owner', async (t) => {
  const ticks = await processStartTicks(process.pid);
  t.true(Number.isInteger(ticks) && ticks! > 0);
  t.true(await ownerAlive({ pid: process.pid, startTicks: ticks! }));
  t.false(await ownerAlive({ pid: process.pid, startTicks: ticks! - 1 }), 'same pid, other start time: not the owner');
  t.is(await processStartTicks(2 ** 22 + 1), undefined);
  // The ava config's require hook made this worker the owner of every lab it (or a child) brings up.
  t.is(process.env[OWNER_ENV], String(process.pid));
  t.is(requestedOwner(undefined), process.pid);
  t.is(requestedOwner(42), 42);
  const saved = process.env[OWNER_ENV];
  process.env[OWNER_ENV] = 'x1';
  t.throws(() => requestedOwner(undefined), { message: /HOSTWIRE_LAB_OWNER_PID=x1: expected a process id/ });
  process.env[OWNER_ENV] = saved;
});

test.serial("a lab test past ava's timeout: ava kills the worker, the lab goes with it", async (t) => {
  t.timeout(4 * 60_000);
  const out = path.join(dir, 'hang.json');
  const config = path.join(dir, 'ava.hang.config.js');
  // The child's own ava: only the hanging fixture, a 40 s inactivity timeout, the same owner hook as ours.
  writeFileSync(config, `export default ${JSON.stringify({ files: ['dist/test/helpers/lab-hang.fixture.js'], timeout: '40s', workerThreads: false,
    require: ['./dist/test/helpers/lab-owner.js'] })};\n`);
  const started = Date.now();
  const r = await execa('npx', ['ava', '--config', config], { cwd: repo, reject: false, timeout: 3 * 60_000,
    env: { HW_HANG_LAB: BD3, HW_HANG_OUT: out, [OWNER_ENV]: '' } });
  t.log(`child ava exited ${r.exitCode} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.regex(`${r.stdout}\n${r.stderr}`, /Timed out while running tests/);
  t.true(existsSync(out), `the fixture never got its lab up:\n${r.stdout}\n${r.stderr}`);
  const state = JSON.parse(readFileSync(out, 'utf8')) as LabState;
  t.is(state.name, BD3);
  t.truthy(state.owner && state.watchdogPid);
  const seconds = await assertLabGoneWithin(t, BD3, [...hostPids(state), state.watchdogPid!], 60_000);
  t.log(`${BD3} gone ${seconds.toFixed(1)} s after ava exited`);
});

test.serial('a SIGKILLed owner: its watchdog removes the lab; with the watchdog killed too, the next sweep does', async (t) => {
  t.timeout(4 * 60_000);
  const first = await ownedLabInChild({ name: BD1, hosts: 1 }, 120_000);
  t.teardown(() => killChild(first.child));
  t.is(first.state.owner?.pid, first.child.pid);
  t.true(await isAlive(first.state.hosts[0]!.initPid!), 'host up');
  t.true(await isAlive(first.state.watchdogPid!), 'watchdog up');
  await killChild(first.child);
  const seconds = await assertLabGoneWithin(t, BD1, [...hostPids(first.state), first.state.watchdogPid!], 60_000);
  t.log(`${BD1} gone ${seconds.toFixed(1)} s after its owner was killed`);

  const second = await ownedLabInChild({ name: BD2, hosts: 1 }, 120_000);
  t.teardown(() => killChild(second.child));
  process.kill(second.state.watchdogPid!, 'SIGKILL');
  await killChild(second.child);
  // Nothing watches bd2 now: it stays (owner dead) until a sweep - which every `lab up` runs first.
  t.true(await isAlive(second.state.hosts[0]!.initPid!), `${BD2} left running without its watchdog`);
  t.is((await readState(BD2))?.createdAt, second.state.createdAt);
  t.true((await sweepOrphanedLabs()).includes(BD2));
  await assertLabGoneWithin(t, BD2, hostPids(second.state), 30_000);
});
