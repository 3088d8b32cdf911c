// service: a systemd unit's run state, boot enablement and masking. restarted/reloaded always
// report a change (like Ansible). Before acting, a pending daemon-reload of this host (unit files
// written by systemd_unit, or this unit's NeedDaemonReload=yes) runs first, once: kit/daemon-reload.ts.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Change, Module, ModuleContext } from '../types.js';
import { applyChanges } from '../kit/apply.js';
import { DAEMON_RELOAD, daemonReloadDone, daemonReloadPending } from '../kit/daemon-reload.js';
import { unitShowRead } from '../../probe/kinds/services.js';
import { isEnabled, isMasked, isRunning, parseShow, type UnitStatus } from '../kit/unit-status.js';
import { serviceDoc } from './doc.js';

const serviceArgs = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9:_.\\@-]+$/, 'expected a unit name like ssh or ovs-vswitchd.service'),
    state: z.enum(['started', 'stopped', 'restarted', 'reloaded']).optional(),
    enabled: z.boolean().optional(),
    masked: z.boolean().optional(),
    daemon_reload: z.boolean().default(false),
  })
  .strict();

export type ServiceArgs = z.infer<typeof serviceArgs>;

const show = (s: UnitStatus) => `ActiveState=${s.activeState}\nUnitFileState=${s.unitFileState}\n`;

/** `hostPending`: unit files changed on this host since its last daemon-reload. */
export function planService(s: UnitStatus, a: ServiceArgs, host = 'the host', hostPending = false): Change[] {
  if (!s.systemctl) throw new HostwireError('bad-input', `systemctl not found on ${host}: install systemd`);
  const u = quoteWord(a.name);
  const run: string[] = [];
  const after = { ...s };
  if (a.masked === true && !isMasked(s)) run.push(`systemctl mask -- ${u}`), (after.unitFileState = 'masked');
  if (a.masked === false && isMasked(s)) run.push(`systemctl unmask -- ${u}`), (after.unitFileState = 'disabled');
  if (s.loadState === 'not-found' && !hostPending && (run.length > 0 || a.state !== undefined || a.enabled !== undefined)) {
    throw new HostwireError('bad-input', `Could not find the requested service ${a.name} on ${host}`);
  }
  if (a.enabled === true && !isEnabled(after)) run.push(`systemctl enable -- ${u}`), (after.unitFileState = 'enabled');
  if (a.enabled === false && ['enabled', 'enabled-runtime'].includes(after.unitFileState)) run.push(`systemctl disable -- ${u}`), (after.unitFileState = 'disabled');
  const running = isRunning(s);
  if (a.state === 'started' && !running) run.push(`systemctl start -- ${u}`), (after.activeState = 'active');
  if (a.state === 'stopped' && running) run.push(`systemctl stop -- ${u}`), (after.activeState = 'inactive');
  if (a.state === 'restarted') run.push(`systemctl restart -- ${u}`), (after.activeState = 'active');
  if (a.state === 'reloaded') run.push(`systemctl ${running ? 'reload' : 'start'} -- ${u}`), (after.activeState = 'active');
  const reloadDue = hostPending || s.needDaemonReload;
  const changes: Change[] = [];
  if (reloadDue && (run.length > 0 || a.daemon_reload)) changes.push({ summary: 'daemon-reload', run: [DAEMON_RELOAD] });
  if (run.length > 0) changes.push({ summary: run.map((c) => c.replace(/^systemctl (\S+) -- .*/, '$1')).join(', ') + ` ${a.name}`, before: show(s), after: show(after), run });
  return changes;
}

export const serviceModule: Module<ServiceArgs, UnitStatus> = {
  name: 'service',
  doc: serviceDoc,
  args: serviceArgs,
  probe: (a) => ({
    ...unitShowRead(a.name),
    parse: parseShow,
  }),
  plan: (s, a, ctx: ModuleContext) => planService(s, a, ctx.host, daemonReloadPending(ctx)),
  async apply(changes, _a, ctx) {
    await applyChanges(changes, ctx);
    if (changes.some((c) => c.run.includes(DAEMON_RELOAD))) daemonReloadDone(ctx);
  },
};
