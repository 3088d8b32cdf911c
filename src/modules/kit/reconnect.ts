// Reaching a host again over the same transport after it went away (reboot, wait_for_connection):
// each attempt drops the old connection and opens a fresh one, bounded in time, and says why it failed.
import { HostwireError } from '../../errors.js';
import type { ExecResult, Transport } from '../../transports/transport.js';
import type { ModuleContext } from '../types.js';

type Reconnectable = Transport & { reconnect?: () => Promise<void> };

/** A fresh connection (the SSH transport's reconnect; a local transport has nothing to renew). */
export async function freshConnection(t: Transport): Promise<void> {
  const r = t as Reconnectable;
  if (r.reconnect) await r.reconnect();
  else await t.connect();
}

/** `work` within `seconds`, or an Error saying it took too long (the attempt is abandoned, not killed). */
export async function within<T>(seconds: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${seconds} s`)), seconds * 1000); });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reconnect, then run `command`; any failure (connection refused, timeout) is the attempt's error. */
export async function execAfterReconnect(ctx: ModuleContext, command: string, seconds: number): Promise<ExecResult> {
  return within(seconds, command, async () => {
    await freshConnection(ctx.transport);
    return ctx.transport.exec(command, { become: ctx.become, timeoutMs: seconds * 1000 });
  });
}

/** The runner's interruptible wait; an interrupted run ends the module. */
export async function waitOrStop(ctx: ModuleContext, ms: number, module: string): Promise<void> {
  if (!ctx.wait) throw new HostwireError('internal', `${module} needs the runner's wait (ModuleContext.wait)`, { host: ctx.host });
  if (!(await ctx.wait(ms))) throw new HostwireError('interrupted', `${module}: the run was interrupted`, { host: ctx.host });
}

/**
 * Tries `attempt` until it succeeds or `timeoutSec` passes, sleeping `pause(n)` seconds after the
 * n-th failure; the last error says why it never succeeded.
 */
export async function untilSuccess(ctx: ModuleContext, module: string, timeoutSec: number, pause: (failures: number) => number, attempt: () => Promise<void>): Promise<Error | undefined> {
  const end = Date.now() + timeoutSec * 1000;
  let failures = 0;
  let last: Error | undefined = new Error('never tried');
  while (Date.now() < end) {
    try {
      await attempt();
      return undefined;
    } catch (e) {
      if (e instanceof HostwireError && e.code === 'interrupted') throw e;
      last = e instanceof Error ? e : new Error(String(e));
    }
    await waitOrStop(ctx, Math.min(pause(failures++) * 1000, Math.max(0, end - Date.now())), module);
  }
  return last;
}
