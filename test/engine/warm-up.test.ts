// The runner's warm-up: right after a host connects, every module the play uses that declares
// warmUp() is asked once (blocks, rescue/always and handlers included); a throwing warm-up is ignored.
import test from 'ava';
import { z } from 'zod';
import { registerResolvedModule } from '../../src/modules/registry.js';
import type { Module } from '../../src/modules/types.js';
import type { PlayDef, TaskItem } from '../../src/engine/playbook/types.js';
import type { Transport } from '../../src/transports/transport.js';
import { warmUpModules } from '../../src/engine/runner/warm-up.js';

const calls: string[] = [];
const mod = (name: string, warm?: () => void): Module<Record<string, unknown>> => ({
  name, args: z.record(z.string(), z.unknown()), doc: { description: 'test', args: {}, example: '', check: 'none', diff: 'none' },
  ...(warm ? { warmUp: ({ transport }: { transport: Transport }) => { calls.push(`${name}@${transport.name}`); warm(); } } : {}),
});
registerResolvedModule('warm_a', mod('warm_a', () => undefined));
registerResolvedModule('warm_b', mod('warm_b', () => { throw new Error('boom'); }));
registerResolvedModule('cold_c', mod('cold_c'));

const task = (module: string) => ({ kind: 'task', module }) as unknown as TaskItem;
const block = (inner: TaskItem[], rescue: TaskItem[] = []) => ({ kind: 'block', block: inner, rescue, always: [] }) as unknown as TaskItem;

test('each declaring module is warmed once per connected host, wherever its tasks sit', (t) => {
  const play = {
    preTasks: [task('warm_a')],
    tasks: [block([task('cold_c'), task('warm_a')], [task('warm_b')]), task('debug')],
    postTasks: [],
    handlers: [task('warm_b')],
  } as unknown as PlayDef;
  t.notThrows(() => warmUpModules(play, { name: 'h1' } as Transport, {}));
  t.deepEqual(calls.sort(), ['warm_a@h1', 'warm_b@h1']);
  warmUpModules(undefined, { name: 'h2' } as Transport, {});
  t.is(calls.length, 2, 'no play, nothing to warm');
});
