// async_status: reads an `async:` job (see kit/async-job.ts) as ansible-core 2.14's action plugin does:
// running {started: 1, finished: 0}; finished: the job's result with finished: 1, its files erased;
// mode: cleanup erases the job without waiting for it.
import { z } from 'zod';
import type { Module, ModuleResult } from '../types.js';
import { jobStatus, removeJob, validJobId } from '../kit/async-job.js';
import { asyncStatusDoc } from './doc.js';

const asyncStatusArgs = z.object({
  jid: z.union([z.string(), z.number()]).transform(String),
  mode: z.enum(['status', 'cleanup']).default('status'),
}).strict();

type AsyncStatusArgs = z.infer<typeof asyncStatusArgs>;

export const asyncStatusModule: Module<AsyncStatusArgs> = {
  name: 'async_status',
  args: asyncStatusArgs,
  doc: asyncStatusDoc,
  environment: 'irrelevant',
  async run(args, ctx): Promise<ModuleResult> {
    // A jid names a path on the host: only Ansible's form (j<digits>.<pid>) is accepted.
    if (!validJobId(args.jid)) return { changed: false, failed: true, ansible_job_id: args.jid, msg: `not an async job id: ${JSON.stringify(args.jid)} (expected the ansible_job_id an async task registered)` };
    if (args.mode === 'cleanup') {
      await removeJob(ctx.transport, args.jid, ctx.become);
      return { changed: false, ansible_job_id: args.jid, erased: `~/.ansible_async/${args.jid}` };
    }
    const status = await jobStatus(ctx.transport, args.jid, ctx.become);
    if (status.finished === 1 && typeof status.results_file === 'string') {
      await removeJob(ctx.transport, args.jid, ctx.become);
      status.erased = status.results_file;
    }
    return status;
  },
};
