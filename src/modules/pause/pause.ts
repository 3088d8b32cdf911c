// pause: ansible-core 2.14's pause action, on the controller, once per batch (BYPASS_HOST_LOOP).
// seconds/minutes: wait that long (at least 1 s), interruptible (Ctrl-C ends the wait and the run);
// without them: ask the prompt when the run is interactive, else say so and go on, as Ansible does
// ("Not waiting for response to prompt as stdin is not interactive").
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool } from '../kit/ansible-args.js';
import { pauseDoc } from './doc.js';

/** The action's `type: int` callable: int('5'), int(2.5) -> 2. */
const pyInt = z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : typeof v === 'number' ? Math.trunc(v) : v), z.number({ invalid_type_error: 'expected a whole number' }).int());

const pauseArgs = z
  .object({ echo: ansibleBool.default(true), minutes: pyInt.optional(), seconds: pyInt.optional(), prompt: z.string().optional() })
  .strict()
  .refine((a) => a.minutes === undefined || a.seconds === undefined, { message: 'parameters are mutually exclusive: minutes|seconds', path: ['seconds'] });
export type PauseArgs = z.infer<typeof pauseArgs>;

/** Python's str(datetime.datetime.now()): local time, microseconds. */
function pyNow(): string {
  const d = new Date();
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds() * 1000, 6)}`;
}

async function waitOrAsk(args: PauseArgs, ctx: ModuleContext, seconds: number | undefined): Promise<{ input: string; warnings: string[] }> {
  const hidden = args.echo ? '' : ' (output is hidden)';
  if (seconds !== undefined) {
    if (!ctx.wait) throw new HostwireError('internal', 'pause needs the runner\'s wait (ModuleContext.wait)', { host: ctx.host });
    if (!(await ctx.wait(seconds * 1000))) throw new HostwireError('interrupted', 'pause: user requested abort!', { host: ctx.host });
    return { input: '', warnings: [] };
  }
  if (!ctx.ask) return { input: '', warnings: ['Not waiting for response to prompt as stdin is not interactive'] };
  const question = `[${(ctx.taskName ?? 'pause').trim()}]\n${args.prompt ?? 'Press enter to continue, Ctrl+C to interrupt'}${hidden}:`;
  return { input: await ctx.ask(question, args.echo), warnings: [] };
}

export const pauseModule: Module<PauseArgs> = {
  name: 'pause',
  doc: pauseDoc,
  args: pauseArgs,
  bypassHostLoop: true,
  environment: 'irrelevant',
  async run(args, ctx): Promise<ModuleResult> {
    // The action's duration_unit: minutes unless seconds was given (a prompt alone reports minutes too).
    const unit = args.seconds !== undefined ? 'seconds' : 'minutes';
    const given = args.minutes !== undefined ? args.minutes * 60 : args.seconds;
    const seconds = given === undefined ? undefined : Math.max(1, given);
    const start = pyNow();
    const t0 = Date.now();
    const { input, warnings } = await waitOrAsk(args, ctx, seconds);
    const elapsed = (Date.now() - t0) / 1000;
    const shown = unit === 'minutes' ? Math.round((elapsed / 60) * 100) / 100 : Math.round(elapsed * 100) / 100;
    return {
      changed: false, rc: 0, stderr: '', stdout: `Paused for ${Number.isInteger(shown) ? shown.toFixed(1) : shown} ${unit}`, start, stop: pyNow(), delta: Math.trunc(elapsed),
      echo: args.echo, user_input: input, ...(warnings.length ? { warnings } : {}),
    };
  },
};
