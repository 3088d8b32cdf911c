// `async:`/`poll:` as ansible-core 2.14's TaskExecutor runs them: the module starts detached on the host
// (kit/async-job.ts); poll: 0 returns at once with the job id (a later async_status reads it); poll: N
// reads the job every N seconds until it finishes or `async` seconds have passed. Interruptible.
import { BadInputError } from '../../errors.js';
import { renderValue } from '../vars/index.js';
import type { Module, ModuleContext, ModuleResult } from '../../modules/types.js';
import { jobStatus, launchJob, removeJob } from '../../modules/kit/async-job.js';
import type { TaskDef, Vars } from '../playbook/types.js';

export interface AsyncRunOptions {
  sleep(ms: number): Promise<void>;
  interrupted?(): boolean;
}

/** Ansible's DEFAULT_POLL_INTERVAL. */
const DEFAULT_POLL = 15;

/** A whole-number keyword of the task on this host: a template's text ("5") is read as Ansible's int(). */
export function taskSeconds(task: TaskDef, key: 'async' | 'poll' | 'retries' | 'delay', vars: Vars): number | undefined {
  const raw = task[key];
  if (raw === undefined) return undefined;
  const v = typeof raw === 'string' ? renderValue(raw, vars, task.loc) : raw;
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new BadInputError(`'${key}' must be a whole number${key === 'retries' ? '' : ' of seconds'}, got ${JSON.stringify(v)}`, task.loc);
  return n;
}

/** The async seconds of the task on this host (0 or none: not async). */
export const asyncSeconds = (task: TaskDef, vars: Vars): number => (task.async === undefined ? 0 : taskSeconds(task, 'async', vars) ?? 0);

/** Waits `ms` in short steps; true when the run was interrupted meanwhile. */
async function pause(ms: number, opts: AsyncRunOptions): Promise<boolean> {
  for (let left = ms; left > 0; left -= 250) {
    if (opts.interrupted?.()) return true;
    await opts.sleep(Math.min(250, left));
  }
  return opts.interrupted?.() ?? false;
}

export async function runAsync(mod: Module<any, any>, args: unknown, ctx: ModuleContext, task: TaskDef, limit: number, opts: AsyncRunOptions): Promise<ModuleResult> {
  if (!mod.background) throw new BadInputError(`async is not supported for this task: hostwire runs command and shell in the background, not ${mod.name}`, task.loc);
  // ActionBase.run: "check mode and async cannot be used on same task."
  if (ctx.check) return { changed: false, failed: true, msg: 'check mode and async cannot be used on same task.' };
  const poll = taskSeconds(task, 'poll', ctx.vars) ?? DEFAULT_POLL;
  const job = await mod.background(args, ctx);
  if ('done' in job) return job.done;
  const { jid, resultsFile } = await launchJob(ctx.transport, job, limit, ctx.become);
  const started: ModuleResult = { changed: false, failed: false, started: 1, finished: 0, ansible_job_id: jid, results_file: resultsFile };
  if (poll === 0) return started;
  let last = started;
  for (let left = limit; left > 0; left -= poll) {
    if (await pause(poll * 1000, opts)) {
      return { ...started, failed: true, msg: `interrupted while waiting for async job ${jid}; it goes on on the host until done or ${limit}s (async_status jid=${jid} reads it)` };
    }
    last = await jobStatus(ctx.transport, jid, ctx.become);
    if (last.finished === 1) {
      // As Ansible: a finished job's status file is removed once read.
      await removeJob(ctx.transport, jid, ctx.become);
      return last;
    }
  }
  return { changed: false, failed: true, msg: `async task did not complete within the requested time - ${limit}s`, async_result: last };
}
