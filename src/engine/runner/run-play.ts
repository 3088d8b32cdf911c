// One play: its hosts in batches (serial), each batch prepared (connect, lock, first read, facts),
// then the play's sections in linear strategy with handlers after each, then the steps modules
// deferred, and the failure policies between batches. The parts live beside it: prepare-batch.ts,
// task-loop.ts (+ run-task.ts per host), run-block.ts, run-include.ts, handlers.ts, meta.ts,
// tasks-ahead.ts (reading the next tasks' state early), deferred-steps.ts.
import { BadInputError } from '../../errors.js';
import type { PlayDef, TaskDef, TaskItem } from '../playbook/types.js';
import { isActive, type HostState } from './host-state.js';
import type { PlayRun, PlayRunOptions } from './play-run.js';
import { rootScope, taskVars, type RunVarsContext, type Scope } from './task-vars.js';
import { runDeferredSteps } from './deferred-steps.js';
import { runInclude, type IncludeHost } from './run-include.js';
import { prepareBatch } from './prepare-batch.js';
import { runBlock } from './run-block.js';
import { record, runTask, taskInfo } from './task-loop.js';
import { runHandlers } from './handlers.js';
import { TasksAhead } from './tasks-ahead.js';

export type { PlayRunOptions } from './play-run.js';

export class PlayRunner implements PlayRun {
  readonly ahead: TasksAhead;
  startReached: boolean;
  batch: HostState[] = [];
  touched = new Set<HostState>();

  constructor(readonly play: PlayDef, readonly vctx: RunVarsContext, readonly opts: PlayRunOptions) {
    this.startReached = !opts.startAtTask;
    this.ahead = new TasksAhead(play, vctx, opts);
  }

  async run(hosts: HostState[]): Promise<void> {
    for (const batch of makeBatches(hosts, this.play.serial)) {
      if (this.opts.interrupted()) return;
      this.batch = batch;
      this.touched = new Set(batch);
      for (const h of batch) {
        h.ended = false;
        h.notified.clear();
      }
      await prepareBatch(this, batch);
      const root = rootScope(this.play);
      for (const section of [this.play.preTasks, this.play.tasks, this.play.postTasks]) {
        await this.runItems(section, root);
        await this.runHandlers();
      }
      await runDeferredSteps(this.touched, this.opts.forks, this.opts.emit);
      const failed = batch.filter((h) => h.failed || h.unreachable).length;
      if (failed === batch.length) return; // Ansible stops the play when a whole batch failed
      if (this.play.maxFailPercentage !== undefined && (failed / batch.length) * 100 > this.play.maxFailPercentage) return;
    }
  }

  async runItems(items: TaskItem[], scope: Scope, only?: HostState[]): Promise<void> {
    const pool = only ?? this.batch;
    for (const item of items) {
      if (this.opts.interrupted() || !pool.some(isActive)) return;
      if (item.kind === 'task') await this.runTask(item, scope, pool.filter(isActive));
      else if (item.dynamic) await runInclude(this.includeHost(), item, scope, pool.filter(isActive));
      else await runBlock(this, item, scope, only);
    }
  }

  runTask(task: TaskDef, scope: Scope, hosts: HostState[], handler = false): Promise<void> {
    return runTask(this, task, scope, hosts, handler);
  }

  runHandlers(): Promise<void> {
    return runHandlers(this);
  }

  /** What a dynamic include needs of this play (run-include.ts). */
  private includeHost(): IncludeHost {
    return {
      play: this.play,
      tags: this.opts,
      varsFor: (h, scope, task, extra) => taskVars(this.vctx, h, scope, task, extra),
      taskInfo: (task, scope, first) => taskInfo(this, task, false, scope, first),
      emit: (e) => this.opts.emit(e),
      record: (task, h, result, info) => record(this, task, h, result, info),
      runItems: (items, scope, hosts) => this.runItems(items, scope, hosts),
    };
  }
}

/** serial: a number, a percentage, or a list of them (the last repeats). */
export function makeBatches<T>(hosts: T[], serial: (number | string)[]): T[][] {
  if (!serial.length) return [hosts];
  const sizes = serial.map((s) => {
    const str = String(s).trim();
    const n = str.endsWith('%') ? Math.floor((hosts.length * Number(str.slice(0, -1))) / 100) : Number(str);
    if (!Number.isFinite(n)) throw new BadInputError(`serial: expected a number or a percentage, got '${str}'`);
    return Math.max(1, n);
  });
  const out: T[][] = [];
  let i = 0;
  let k = 0;
  while (i < hosts.length) {
    const size = sizes[Math.min(k++, sizes.length - 1)];
    out.push(hosts.slice(i, i + size));
    i += size;
  }
  return out;
}
