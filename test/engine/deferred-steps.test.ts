// Deferred steps: systemd_unit leaves one daemon-reload on the host however many unit files change;
// service runs it first when it acts; whatever is left runs once at the batch's end (the runner knows
// it only as a step); a failing step fails its host and says why. The transport is a recorder.
import test from 'ava';
import { newHostState } from '../../src/engine/runner/host-state.js';
import { runDeferredSteps } from '../../src/engine/runner/deferred-steps.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { daemonReloadDone, daemonReloadPending, deferDaemonReload } from '../../src/modules/kit/daemon-reload.js';
import type { Transport } from '../../src/transports/transport.js';

function recordedHost(code = 0) {
  const ran: string[] = [];
  const transport = { name: 'node1', exec: async (c: string) => (ran.push(c), { stdout: '', stderr: code ? 'Access denied' : '', code }) } as unknown as Transport;
  const h = newHostState('node1', {});
  h.transport = transport;
  const ctx = { host: 'node1', transport, deferred: h.deferred };
  return { h, ctx, ran };
}

test('two unit changes leave one reload; the batch end runs it once, then nothing is pending', async (t) => {
  const { h, ctx, ran } = recordedHost();
  const events: RunEvent[] = [];
  await runDeferredSteps([h], 5, (e) => events.push(e));
  t.deepEqual(ran, [], 'nothing deferred, nothing run');
  deferDaemonReload(ctx);
  deferDaemonReload(ctx);
  t.true(daemonReloadPending(ctx));
  t.is(h.deferred.size, 1);
  await runDeferredSteps([h], 5, (e) => events.push(e));
  await runDeferredSteps([h], 5, (e) => events.push(e));
  t.deepEqual(ran, ['systemctl daemon-reload']);
  t.false(daemonReloadPending(ctx));
  t.deepEqual(events, []);
  t.false(h.failed);
});

test('a reload a service task already ran is not run again at the batch end', async (t) => {
  const { h, ctx, ran } = recordedHost();
  deferDaemonReload(ctx);
  daemonReloadDone(ctx);
  await runDeferredSteps([h], 5, () => undefined);
  t.deepEqual(ran, []);
});

test('a failing step fails its host, once, naming the command and the host', async (t) => {
  const { h, ctx } = recordedHost(1);
  const events: RunEvent[] = [];
  deferDaemonReload(ctx);
  await runDeferredSteps([h], 5, (e) => events.push(e));
  t.true(h.failed);
  t.is(h.stats.failed, 1);
  t.is(events.length, 1);
  const e = events[0];
  t.true(e.type === 'warning' && e.message.startsWith('node1: systemctl daemon-reload failed:') && e.message.includes('Access denied'), JSON.stringify(e));
  await runDeferredSteps([h], 5, (x) => events.push(x));
  t.is(events.length, 1, 'not retried at the next batch end');
});

test('an unreachable host runs no step', async (t) => {
  const { h, ctx, ran } = recordedHost();
  deferDaemonReload(ctx);
  h.unreachable = true;
  await runDeferredSteps([h], 5, () => undefined);
  t.deepEqual(ran, []);
});
