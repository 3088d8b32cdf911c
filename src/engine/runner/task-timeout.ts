// `timeout:` as ansible-core 2.14's TaskExecutor applies it: an alarm around each run of the action
// (each until/retries attempt); when it fires the task fails with "The <action> action failed to
// execute in the expected time frame (N) and was terminated". Here every command the module starts
// on the host is bounded by what is left of the time (the transport kills it), and the wait for the
// module ends when the time is up.
import { BadInputError } from '../../errors.js';
import { renderValue } from '../vars/index.js';
import type { ModuleContext, ModuleResult } from '../../modules/types.js';
import type { TaskDef, Vars } from '../playbook/types.js';
import type { Transport } from '../../transports/transport.js';

/** The task's timeout in seconds (0: none), a template rendered with the host's vars. */
export function timeoutSeconds(task: TaskDef, vars: Vars): number {
  if (task.timeout === undefined) return 0;
  const v = typeof task.timeout === 'string' ? renderValue(task.timeout, vars, task.loc) : task.timeout;
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new BadInputError(`'timeout' must be a whole number of seconds, got ${JSON.stringify(v)}`, task.loc);
  return n;
}

/** A transport whose commands end by `deadline` (ms since the epoch) at the latest. */
function boundedTransport(t: Transport, deadline: number): Transport {
  return new Proxy(t, {
    get(target, prop, receiver) {
      if (prop !== 'exec') return Reflect.get(target, prop, receiver) as unknown;
      return (command: string, options: Parameters<Transport['exec']>[1] = {}) => {
        const left = Math.max(1, deadline - Date.now());
        return target.exec(command, { ...options, timeoutMs: Math.min(options.timeoutMs ?? left, left) });
      };
    },
  });
}

/** Runs the action under the task's timeout; `action` is the module as written (ansible.builtin.command). */
export async function underTimeout(seconds: number, action: string, ctx: ModuleContext, run: (ctx: ModuleContext) => Promise<ModuleResult>): Promise<ModuleResult> {
  if (seconds <= 0) return run(ctx);
  const deadline = Date.now() + seconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<ModuleResult>((resolve) => {
    timer = setTimeout(() => resolve({ changed: false, failed: true, msg: `The ${action} action failed to execute in the expected time frame (${seconds}) and was terminated` }), seconds * 1000);
  });
  try {
    return await Promise.race([run({ ...ctx, transport: boundedTransport(ctx.transport, deadline) }), expired]);
  } finally {
    clearTimeout(timer);
  }
}
