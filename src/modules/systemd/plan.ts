// What ansible.builtin.systemd (ansible-core 2.14, modules/systemd.py main()) does to one unit, as a
// pure plan from the unit's `systemctl show` read: mask/unmask, then enable/disable, then the run
// state - each judged the way systemd.py judges it - and the result dictionary it registers.
import { HostwireError } from '../../errors.js';
import { quoteWord } from '../kit/shell-words.js';
import type { UnitStatus } from '../kit/unit-status.js';

export interface SystemdArgs {
  name?: string;
  state?: 'reloaded' | 'restarted' | 'started' | 'stopped';
  enabled?: boolean;
  force?: boolean;
  masked?: boolean;
  daemon_reload: boolean;
  daemon_reexec: boolean;
  scope: 'system' | 'user' | 'global';
  no_block: boolean;
}

export interface SystemdPlan {
  /** systemctl commands in the order systemd.py runs them (none under a converged unit). */
  commands: string[];
  /** What systemd.py registers: name, changed, status, and enabled/state when asked. */
  result: Record<string, unknown> & { changed: boolean };
  /** The mask/unmask command: systemd.py ignores its failure when the unit exists (else: not found). */
  mask?: { command: string; found: boolean };
}

// systemd.py: `is-enabled -l` exits 0 for these, except indirect and alias, which it reads as not enabled.
const ENABLED = new Set(['enabled', 'enabled-runtime', 'static', 'generated', 'transient']);
const running = (s: UnitStatus) => s.activeState === 'active' || s.activeState === 'activating';

/**
 * systemctl as systemd.py runs it: scope user adds --user and, when XDG_RUNTIME_DIR is not set, sets it to
 * /run/user/<uid> (systemd.py sets os.environ the same way); scope global adds --global (the unit files of
 * every user's manager, under /etc/systemd/user: no manager runs them, so only mask and enable change anything);
 * then --no-block, --force before the verb.
 */
export function systemctl(a: Pick<SystemdArgs, 'scope' | 'no_block' | 'force'>, verb: string, unit?: string): string {
  const opts = [a.scope === 'system' ? '' : ` --${a.scope}`, a.no_block ? ' --no-block' : '', a.force ? ' --force' : ''].join('');
  const env = a.scope === 'user' ? 'XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/run/user/$(id -u)}" ' : '';
  return `${env}systemctl${opts} ${verb}${unit === undefined ? '' : ` -- ${quoteWord(unit)}`}`;
}

/** The registered `status`: the properties hostwire reads (Ansible's holds every property systemctl shows). */
export const statusOf = (s: UnitStatus): Record<string, string> => ({
  LoadState: s.loadState,
  ActiveState: s.activeState,
  SubState: s.subState,
  UnitFileState: s.unitFileState,
  NeedDaemonReload: s.needDaemonReload ? 'yes' : 'no',
});

/**
 * `hostPending`: unit files written on this host since its last daemon-reload (systemd_unit); the
 * reload then runs before anything acts, and a unit not found yet may be one of them.
 */
export function planSystemd(s: UnitStatus | undefined, a: SystemdArgs, host: string, hostPending = false): SystemdPlan {
  const pre: string[] = [];
  const manager = { scope: a.scope, no_block: false, force: false };
  if (a.daemon_reload) pre.push(systemctl(manager, 'daemon-reload'));
  if (a.daemon_reexec) pre.push(systemctl(manager, 'daemon-reexec'));
  // Unit files hostwire wrote (systemd_unit) are the system manager's: a user or global scope owes no reload for them.
  const pending = a.scope === 'system' && hostPending;
  const result: SystemdPlan['result'] = { name: a.name ?? null, changed: false, status: {} };
  if (a.name === undefined || s === undefined) return { commands: pre, result };
  const unit = a.name;
  if (!s.systemctl) throw new HostwireError('bad-input', `Failed to find required executable "systemctl" on ${host}`);
  result.status = statusOf(s);
  const found = s.loadState !== 'not-found' || pending;
  const missing = () => new HostwireError('bad-input', `Could not find the requested service ${unit}: host`);
  const acts: string[] = [];
  let mask: SystemdPlan['mask'];
  if (a.masked !== undefined && (s.unitFileState === 'masked') !== a.masked) {
    mask = { command: systemctl(a, a.masked ? 'mask' : 'unmask', unit), found };
    acts.push(mask.command);
  }
  if (a.enabled !== undefined) {
    if (!found) throw missing();
    const enabled = ENABLED.has(s.unitFileState);
    result.enabled = enabled;
    if (enabled !== a.enabled) acts.push(systemctl(a, a.enabled ? 'enable' : 'disable', unit)), (result.enabled = a.enabled);
  }
  if (a.state !== undefined) {
    if (!found) throw missing();
    result.state = a.state;
    let verb: string | undefined;
    if (a.state === 'started') verb = running(s) ? undefined : 'start';
    else if (a.state === 'stopped') verb = running(s) || s.activeState === 'deactivating' ? 'stop' : undefined;
    else verb = running(s) ? a.state.slice(0, -2) : 'start';
    if (a.state === 'restarted' || a.state === 'reloaded') result.state = 'started';
    if (verb) acts.push(systemctl(a, verb, unit));
  }
  result.changed = acts.length > 0;
  // A reload hostwire owes the host (or the unit asks for) comes first, once, when something acts.
  const owed = (pending || s.needDaemonReload) && acts.length > 0 && !a.daemon_reload;
  return { commands: [...(owed ? [systemctl(manager, 'daemon-reload')] : []), ...pre, ...acts], result, mask };
}
