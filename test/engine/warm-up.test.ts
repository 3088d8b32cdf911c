// The runner's warm-up: right after a host connects, every module that declares warmUp() is asked once
// for the tasks sure to be reached (blocks and always included); a task that may be skipped - under a
// when (its own, a block's, an include's), in a rescue or a handler, deselected by tags - warms nothing;
// a throwing warm-up is ignored. prepare(), a warm-up's controller-side part, runs before connecting.
import test from 'ava';
import { z } from 'zod';
import { registerResolvedModule } from '../../src/modules/all.js';
import type { Module } from '../../src/modules/types.js';
import type { PlayDef, TaskItem } from '../../src/engine/playbook/types.js';
import type { Transport } from '../../src/transports/transport.js';
import { prepareModules, warmUpModules } from '../../src/engine/runner/warm-up.js';

const calls: string[] = [];
const mod = (name: string, warm?: () => void): Module<Record<string, unknown>> => ({
  name, args: z.record(z.string(), z.unknown()), doc: { description: 'test', args: {}, example: '', check: 'none', diff: 'none' },
  ...(warm ? { warmUp: ({ transport }: { transport: Transport }) => { calls.push(`${name}@${transport.name}`); warm(); } } : {}),
});
registerResolvedModule('warm_a', mod('warm_a', () => undefined));
registerResolvedModule('warm_b', mod('warm_b', () => { throw new Error('boom'); }));
registerResolvedModule('cold_c', mod('cold_c'));
registerResolvedModule('warm_d', mod('warm_d', () => undefined));

const task = (module: string, when: unknown[] = [], tags: string[] = []) => ({ kind: 'task', module, when, tags }) as unknown as TaskItem;
const block = (inner: TaskItem[], rescue: TaskItem[] = [], when: unknown[] = [], always: TaskItem[] = []) => ({ kind: 'block', block: inner, rescue, always, when, tags: [] }) as unknown as TaskItem;

test('each declaring module of a task sure to be reached is warmed once per connected host', (t) => {
  const play = {
    tags: [],
    preTasks: [task('warm_a')],
    tasks: [block([task('cold_c'), task('warm_a')], [], [], [task('warm_b')]), task('debug')],
    postTasks: [],
    handlers: [task('warm_d')],
  } as unknown as PlayDef;
  calls.length = 0;
  t.notThrows(() => warmUpModules(play, { name: 'h1' } as Transport, {}));
  t.deepEqual(calls.sort(), ['warm_a@h1', 'warm_b@h1']);
  warmUpModules(undefined, { name: 'h2' } as Transport, {});
  t.is(calls.length, 2, 'no play, nothing to warm');
});

test('a task that may be skipped warms nothing: when (own, block, include), rescue, handler, tags', (t) => {
  const include = { ...(block([task('warm_a')]) as object), dynamic: { task: { when: ['x'] } } } as unknown as TaskItem;
  const play = {
    tags: [],
    preTasks: [task('warm_a', ['x'])],
    tasks: [block([task('warm_a')], [task('warm_b')], ['x']), block([task('cold_c')], [task('warm_d')]), include, task('warm_b', [], ['slow'])],
    postTasks: [],
    handlers: [task('warm_d')],
  } as unknown as PlayDef;
  calls.length = 0;
  warmUpModules(play, { name: 'h1' } as Transport, {}, { tags: [], skipTags: ['slow'] });
  t.deepEqual(calls, []);
  warmUpModules(play, { name: 'h1' } as Transport, {}, { tags: ['slow'], skipTags: [] });
  t.deepEqual(calls, ['warm_b@h1'], 'selected by its tag');
});

test('prepare (the controller-side part) runs for the same tasks, without a host; a throwing one is ignored', (t) => {
  const prepared: string[] = [];
  const prep = (name: string, fail = false): Module<Record<string, unknown>> => ({
    ...mod(name), prepare: () => { prepared.push(name); if (fail) throw new Error('boom'); },
  });
  registerResolvedModule('prep_e', prep('prep_e', true));
  registerResolvedModule('prep_f', prep('prep_f'));
  const play = {
    tags: [],
    preTasks: [],
    tasks: [task('prep_e'), task('prep_f', ['x']), block([task('warm_a')], [task('prep_f')])],
    postTasks: [],
    handlers: [task('prep_f')],
  } as unknown as PlayDef;
  calls.length = 0;
  t.notThrows(() => prepareModules(play));
  t.deepEqual(prepared, ['prep_e'], 'prep_f only under a when, in a rescue, as a handler');
  t.deepEqual(calls, [], 'prepare starts no host warm-up');
  prepareModules(undefined);
  t.is(prepared.length, 1, 'no play, nothing to prepare');
});
