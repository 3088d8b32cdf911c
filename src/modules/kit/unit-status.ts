// Pure parser of `systemctl show -p LoadState,ActiveState,SubState,UnitFileState,NeedDaemonReload`
// (the read: ../../probe/kinds/services.ts); shared by service and systemd.
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';

export interface UnitStatus {
  /** False when the host has no systemctl at all. */
  systemctl: boolean;
  loadState: string;
  activeState: string;
  subState: string;
  /** '' for units with no unit file (not-found). */
  unitFileState: string;
  needDaemonReload: boolean;
}

export function parseShow(out: ProbeOutput): UnitStatus {
  const lines = out.stdout.split('\n');
  if (lines.includes('systemctl:missing')) return { systemctl: false, loadState: '', activeState: '', subState: '', unitFileState: '', needDaemonReload: false };
  const props = new Map<string, string>();
  for (const l of lines) {
    const eq = l.indexOf('=');
    if (eq > 0) props.set(l.slice(0, eq), l.slice(eq + 1));
  }
  if (!props.has('LoadState') || !props.has('ActiveState')) {
    throw new ProbeParseError(`systemctl show printed no unit state (is systemd running? rc=${out.rc})`, out.stdout);
  }
  return {
    systemctl: true,
    loadState: props.get('LoadState')!,
    activeState: props.get('ActiveState')!,
    subState: props.get('SubState') ?? '',
    unitFileState: props.get('UnitFileState') ?? '',
    needDaemonReload: props.get('NeedDaemonReload') === 'yes',
  };
}

/** What `systemctl is-enabled` answers 0 for: the unit starts at boot (or cannot be toggled). */
export const isEnabled = (s: UnitStatus) => ['enabled', 'enabled-runtime', 'alias', 'static', 'indirect', 'generated', 'transient'].includes(s.unitFileState);
export const isRunning = (s: UnitStatus) => ['active', 'activating', 'reloading'].includes(s.activeState);
export const isMasked = (s: UnitStatus) => s.unitFileState === 'masked' || s.unitFileState === 'masked-runtime';
