// `systemctl daemon-reload` at most once per host per batch of unit-file changes.
//
// Shared by systemd_unit, service and systemd. systemd_unit does not reload after writing; it leaves
// a deferred step on the host (see DeferredStep in ../types.ts). The next service task that acts on that host runs
// `systemctl daemon-reload` first (also when its own unit reports NeedDaemonReload=yes, i.e. it was
// edited behind our back) and deletes the step; so three unit/drop-in writes followed by a restart
// cost one reload. A step still pending when the batch ends is run by the runner, which knows it
// only as a deferred step. systemd_unit's `daemon_reload: yes` reloads immediately instead.
import { CommandError } from '../../errors.js';
import type { DeferredStep, ModuleContext } from '../types.js';

export const DAEMON_RELOAD = 'systemctl daemon-reload';

/** The key of the pending reload among a host's deferred steps. */
const KEY = 'systemd:daemon-reload';

type Ctx = Pick<ModuleContext, 'host' | 'transport' | 'become' | 'deferred'>;

/** A unit file changed on the host and systemd has not re-read it yet: reload after the batch unless a service task does first. */
export function deferDaemonReload(ctx: Ctx): void {
  if (ctx.deferred.has(KEY)) return;
  const { host, transport, become } = ctx;
  const step: DeferredStep = {
    describe: DAEMON_RELOAD,
    run: async () => {
      const r = await transport.exec(DAEMON_RELOAD, { become });
      if (r.code !== 0) throw new CommandError({ command: DAEMON_RELOAD, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host });
    },
  };
  ctx.deferred.set(KEY, step);
}

/** Whether a reload is pending on this host (unit files written since the last one). */
export const daemonReloadPending = (ctx: Pick<Ctx, 'deferred'>): boolean => ctx.deferred.has(KEY);

/** The reload ran (service did it before acting, or daemon_reload: yes): nothing left for the batch's end. */
export const daemonReloadDone = (ctx: Pick<Ctx, 'deferred'>): void => void ctx.deferred.delete(KEY);
