// Units' state as `systemctl show` prints it: several services' probes of one batch are read by
// one `systemctl show` of all their units (~10 ms of host CPU saved per unit).
import { mergeableRead } from '../merge.js';
import type { MergeKind, ProbeRead } from '../types.js';
import { shellQuote } from '../../transports/quote.js';

export const UNIT_PROPS = 'LoadState,ActiveState,SubState,UnitFileState,NeedDaemonReload';

/** One `systemctl show` for one or more units (several: one block per unit, in order, blank-line separated). */
export function showCommand(units: readonly string[]): string {
  return `if command -v systemctl >/dev/null 2>&1; then systemctl show -p ${UNIT_PROPS} -- ${units.map(shellQuote).join(' ')}; else echo systemctl:missing; fi`;
}

export const unitShowKind: MergeKind<string> = {
  name: 'systemctl-show',
  script: showCommand,
  split(stdout, units) {
    if (stdout.split('\n').includes('systemctl:missing')) return units.map(() => 'systemctl:missing\n');
    const blocks = stdout.replace(/\n+$/, '').split('\n\n');
    if (blocks.length !== units.length || !blocks.every((b) => b.startsWith('LoadState='))) return undefined;
    return blocks.map((b) => `${b}\n`);
  },
};

/** The read of one unit's state, mergeable with the batch's other units. */
export function unitShowRead(unit: string): ProbeRead {
  return mergeableRead(showCommand([unit]), unitShowKind, unit);
}
