// `systemctl daemon-reload` at most once per host per batch of unit-file changes.
//
// How: systemd_unit does not reload after writing; it marks the host's transport as pending here.
// The next service task that acts on that host runs `systemctl daemon-reload` first (also when its
// own unit reports NeedDaemonReload=yes, i.e. it was edited behind our back) and clears the mark;
// so three unit/drop-in writes followed by a restart cost one reload. Whatever is still pending
// when the play ends is flushed by the runner calling flushDaemonReload() for each host.
// The store is keyed by the Transport object: one per host for the whole run, and a WeakMap
// forgets closed hosts. systemd_unit's `daemon_reload: yes` reloads immediately instead.
import { CommandError } from '../../errors.js';
import type { BecomeOptions, Transport } from '../../transports/transport.js';

const pending = new WeakMap<Transport, Set<string>>();

/** Remember that `path` changed on the host behind `t` and systemd has not re-read it yet. */
export function markDaemonReload(t: Transport, path: string): void {
  const s = pending.get(t) ?? new Set<string>();
  s.add(path);
  pending.set(t, s);
}

/** Unit files written on this host since the last reload ([] = nothing pending). */
export const pendingDaemonReload = (t: Transport): string[] => [...(pending.get(t) ?? [])];

export const clearDaemonReload = (t: Transport): void => void pending.delete(t);

export const DAEMON_RELOAD = 'systemctl daemon-reload';

/** Runs the pending daemon-reload of one host, if any; returns whether it ran. The runner calls this at the end of a play. */
export async function flushDaemonReload(t: Transport, become?: BecomeOptions): Promise<boolean> {
  if (!pending.get(t)?.size) return false;
  const r = await t.exec(DAEMON_RELOAD, { become });
  if (r.code !== 0) throw new CommandError({ command: DAEMON_RELOAD, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: t.name });
  clearDaemonReload(t);
  return true;
}
