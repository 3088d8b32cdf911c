// The runner is the one check-mode gate for run() modules: a module declares skipsInCheck (always, or
// per args) and the runner skips it under --check without calling run(), registering Ansible's shape.
import test from 'ava';
import { z } from 'zod';
import { execModule } from '../../src/engine/runner/run-task.js';
import type { HostState } from '../../src/engine/runner/host-state.js';
import { commandModule } from '../../src/modules/command/command.js';
import type { Module, ModuleContext } from '../../src/modules/types.js';

const ctx = (check: boolean): ModuleContext => ({
  host: 'h1', vars: {}, check, diff: false, baseDir: '/nonexistent',
  transport: {} as ModuleContext['transport'],
  render: (s) => s,
  probe: () => Promise.reject(new Error('no probe in this test')),
  deferred: new Map(),
});
const noHost = {} as HostState;

function acting(skipsInCheck: Module['skipsInCheck']): { mod: Module<{ n: number }>; calls: number[] } {
  const calls: number[] = [];
  const mod: Module<{ n: number }> = {
    name: 'acting',
    doc: { description: 'a module that acts on the host', args: { n: 'a number' }, example: '- acting: { n: 1 }', check: 'none', diff: 'none' },
    args: z.object({ n: z.number() }),
    skipsInCheck: skipsInCheck as Module<{ n: number }>['skipsInCheck'],
    run: async (a) => (calls.push(a.n), { changed: true }),
  };
  return { mod, calls };
}

test('skipsInCheck: true -> skipped under --check with AnsibleModule\'s message, run() never called; runs otherwise', async (t) => {
  const { mod, calls } = acting(true);
  t.deepEqual(await execModule(mod, { n: 1 }, ctx(true), noHost), { changed: false, skipped: true, msg: 'remote module (acting) does not support check mode' });
  t.deepEqual(calls, []);
  t.deepEqual(await execModule(mod, { n: 2 }, ctx(false), noHost), { changed: true });
  t.deepEqual(calls, [2]);
});

test('skipsInCheck per args: only the args it cannot predict are skipped', async (t) => {
  const { mod, calls } = acting(((a: { n: number }) => a.n > 10) as Module['skipsInCheck']);
  t.true((await execModule(mod, { n: 11 }, ctx(true), noHost)).skipped);
  t.deepEqual(await execModule(mod, { n: 3 }, ctx(true), noHost), { changed: true });
  t.deepEqual(calls, [3]);
});

test('command without creates/removes: the runner skips it with the command module\'s own result shape', async (t) => {
  const args = commandModule.args.parse({ _raw_params: 'touch /tmp/x' });
  const r = await execModule(commandModule, args, ctx(true), noHost);
  t.like(r, { changed: false, skipped: true, rc: 0, cmd: ['touch', '/tmp/x'], msg: 'Command would have run if not in check mode', stdout_lines: [] });
  t.true(commandModule.skipsInCheck !== undefined && typeof commandModule.skipsInCheck === 'function');
  t.false((commandModule.skipsInCheck as (a: unknown) => boolean)(commandModule.args.parse({ _raw_params: 'true', creates: '/x' })));
});
