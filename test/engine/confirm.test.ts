// The confirmation hook: a real module (ip_route, state absent, planned from routes recorded on a lab
// host) marks the removal disruptive; the runner asks before applying and a "no" fails the task
// without one command reaching the host. The transport is a recorder, so nothing touches this machine.
import test from 'ava';
import { execModule } from '../../src/engine/runner/run-task.js';
import { newHostState } from '../../src/engine/runner/host-state.js';
import { askBeforeApply, formatConfirmSummary, serializeConfirm, type ConfirmRequest } from '../../src/engine/runner/confirm.js';
import { ipRouteModule } from '../../src/modules/ip_route/ip_route.js';
import type { Change, ModuleContext } from '../../src/modules/types.js';
import type { Transport } from '../../src/transports/transport.js';
import { loadCase } from '../modules/net-cases.js';

function context(check = false) {
  const execs: string[] = [];
  const transport = { exec: async (script: string) => (execs.push(script), { code: 0, stdout: '', stderr: '' }), writeFile: async () => undefined } as unknown as Transport;
  const recorded = loadCase('ip_route', 'probe-routes');
  const ctx: ModuleContext = {
    host: 'node1', transport, check, diff: false, vars: {}, baseDir: '.', render: (s) => s, deferred: new Map(),
    probe: async (p) => p.parse({ stdout: recorded.stdout, rc: 0 }) as never,
  };
  return { ctx, execs };
}
const removeRoute = ipRouteModule.args.parse({ dst: '203.0.113.0/24', table: 100, state: 'absent' });
const addRoute = ipRouteModule.args.parse({ dst: '198.51.100.0/24', via: '192.0.2.2', metric: 50 });

test('removing a route is asked first; "no" fails the task and applies nothing', async (t) => {
  const { ctx, execs } = context();
  const asked: Change[][] = [];
  const r = await execModule(ipRouteModule, removeRoute, ctx, newHostState('node1', {}), async (ch) => (asked.push(ch), false));
  t.is(asked.length, 1);
  t.regex(asked[0]![0]!.disruptive ?? '', /removes a route/);
  t.true(r.failed);
  t.false(r.changed);
  t.regex(String(r.msg), /^not confirmed by the user: delete route 203\.0\.113\.0\/24 \(table 100\)/);
  t.deepEqual(execs, []);
});

test('"yes" applies the removal', async (t) => {
  const { ctx, execs } = context();
  const r = await execModule(ipRouteModule, removeRoute, ctx, newHostState('node1', {}), async () => true);
  t.true(r.changed);
  t.falsy(r.failed);
  t.is(execs.length, 1);
  t.regex(execs[0]!, /ip -4 route del 203\.0\.113\.0\/24 table 100/);
});

test('not asked: adding a route, under --check, or without a callback (--yes, no terminal)', async (t) => {
  let asked = 0;
  const ask = async () => (asked++, false);
  const add = context();
  t.true((await execModule(ipRouteModule, addRoute, add.ctx, newHostState('node1', {}), ask)).changed);
  t.is(add.execs.length, 1);
  const check = context(true);
  t.true((await execModule(ipRouteModule, removeRoute, check.ctx, newHostState('node1', {}), ask)).changed);
  t.deepEqual(check.execs, []);
  const none = context();
  t.true((await execModule(ipRouteModule, removeRoute, none.ctx, newHostState('node1', {}))).changed);
  t.is(none.execs.length, 1);
  t.is(asked, 0);
  t.is(await askBeforeApply([{ summary: 'x', run: [] }], ask), undefined);
});

test('questions from parallel hosts come one at a time, in order', async (t) => {
  let open = 0;
  let maxOpen = 0;
  const order: string[] = [];
  const confirm = serializeConfirm(async (req: ConfirmRequest) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    await new Promise((r) => setTimeout(r, 5));
    order.push(req.host);
    open--;
    return req.host !== 'n2';
  });
  const answers = await Promise.all(['n1', 'n2', 'n3'].map((host) => confirm({ host, task: 't', changes: [] })));
  t.is(maxOpen, 1);
  t.deepEqual(order, ['n1', 'n2', 'n3']);
  t.deepEqual(answers, [true, false, true]);
});

test('summary names host, task, every change and why the disruptive ones are', (t) => {
  const text = formatConfirmSummary({ host: 'node1', task: 'move uplink', changes: [
    { summary: 'install /usr/local/bin/x', run: [] },
    { summary: 'move eth0 into br-ex', run: [], disruptive: 'the SSH session blinks' },
  ] });
  t.is(text, 'node1: task "move uplink" will make disruptive changes:\n  - install /usr/local/bin/x\n  ! move eth0 into br-ex\n      why: the SSH session blinks');
});
