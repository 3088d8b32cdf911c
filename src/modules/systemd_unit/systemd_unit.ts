// systemd_unit: a unit file or one drop-in (<path>/<unit>.d/<dropin>.conf) with given content.
// A change leaves the host one deferred daemon-reload (see kit/daemon-reload.ts) unless
// daemon_reload: yes asks for it right away.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Change, Module } from '../types.js';
import { applyChanges } from '../kit/apply.js';
import { assertRegularFile, planContent } from '../kit/content-plan.js';
import { modeArg } from '../kit/mode.js';
import { isSymbolicMode } from '../kit/symbolic-mode.js';
import { UMASK_LINE } from '../kit/stat-probe.js';
import { parseStat, type FileStat } from '../kit/file-stat.js';
import { fileRead } from '../../probe/kinds/files.js';
import { controlFree } from '../kit/line-text.js';
import { DAEMON_RELOAD, daemonReloadDone, deferDaemonReload } from '../kit/daemon-reload.js';
import { systemdUnitDoc } from './doc.js';

const unitArgs = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9:_.\\@-]+\.(service|socket|target|timer|mount|automount|path|slice|scope|swap|device)$/, 'expected a unit name with its type, like ovs-vswitchd.service'),
    dropin: z.string().regex(/^[A-Za-z0-9:_.@-]+$/, 'expected a drop-in name like 10-mtu').optional(),
    content: z.string().superRefine(controlFree('a systemd unit file')).optional(),
    state: z.enum(['present', 'absent']).default('present'),
    path: z.string().min(1).default('/etc/systemd/system'),
    mode: modeArg.default('0644'),
    daemon_reload: z.boolean().default(false),
  })
  .strict()
  .refine((a) => a.state === 'absent' || a.content !== undefined, { message: "state 'present' requires 'content'", path: ['content'] });

export type UnitArgs = z.infer<typeof unitArgs>;

export interface UnitState {
  systemctl: boolean;
  file: FileStat;
}

export function unitFilePath(a: Pick<UnitArgs, 'name' | 'dropin' | 'path'>): string {
  const base = a.path.replace(/\/+$/, '');
  if (a.dropin === undefined) return `${base}/${a.name}`;
  return `${base}/${a.name}.d/${a.dropin.endsWith('.conf') ? a.dropin : `${a.dropin}.conf`}`;
}

export function parseUnitState(out: { stdout: string; rc: number }): UnitState {
  return { systemctl: !out.stdout.split('\n').includes('systemctl:missing'), file: parseStat(out) };
}

export function planUnit(st: UnitState, a: UnitArgs, host = 'the host'): Change[] {
  if (!st.systemctl) throw new HostwireError('bad-input', `systemctl not found on ${host}: install systemd`);
  const path = unitFilePath(a);
  assertRegularFile(path, st.file);
  if (a.state === 'absent') {
    if (!st.file.exists) return [];
    const rm = [`rm -f -- ${quoteWord(path)}`];
    if (a.dropin !== undefined) rm.push(`rmdir --ignore-fail-on-non-empty -- ${quoteWord(path.slice(0, path.lastIndexOf('/')))}`);
    return [{ summary: `remove ${path}`, before: st.file.content?.toString('utf8') ?? '', after: '', run: rm }];
  }
  return planContent(st.file, { path, content: a.content!, mode: a.mode, createParent: true });
}

export const systemdUnitModule: Module<UnitArgs, UnitState> = {
  name: 'systemd_unit',
  doc: systemdUnitDoc,
  args: unitArgs,
  probe: (a) => ({
    ...fileRead({ path: unitFilePath(a), content: true, before: `${isSymbolicMode(a.mode) ? `${UMASK_LINE}; ` : ''}command -v systemctl >/dev/null 2>&1 || echo systemctl:missing` }),
    parse: parseUnitState,
  }),
  plan: (st, a, ctx) => planUnit(st, a, ctx.host),
  async apply(changes, a, ctx) {
    await applyChanges(changes, ctx);
    // Only what systemd reads (unit files, drop-ins) needs a reload; mode-only changes do not.
    if (!changes.some((c) => c.write || c.summary.startsWith('remove'))) return;
    if (!a.daemon_reload) return deferDaemonReload(ctx);
    await applyChanges([{ summary: 'daemon-reload', run: [DAEMON_RELOAD] }], ctx);
    daemonReloadDone(ctx);
  },
};
