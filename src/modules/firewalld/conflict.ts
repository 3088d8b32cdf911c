// ZONE_CONFLICT, said clearly: which source (or interface), which zone holds it, runtime and/or
// permanent, and what to do. firewall-cmd itself only prints "'X' already bound to a zone".
import { HostwireError } from '../../errors.js';

export interface BoundZones {
  runtime?: string;
  permanent?: string;
}

/** The zones other than `target` that hold the item, or undefined when there is no conflict. */
export function conflictOf(bound: BoundZones, target: string): BoundZones | undefined {
  const other = (z?: string) => (z && z !== target ? z : undefined);
  const c = { runtime: other(bound.runtime), permanent: other(bound.permanent) };
  return c.runtime || c.permanent ? c : undefined;
}

/** "bound to zone internal (runtime and permanent)" / "... to zone a (runtime) and zone b (permanent)". */
export function describeBinding(c: BoundZones): string {
  if (c.runtime && c.runtime === c.permanent) return `zone ${c.runtime} (runtime and permanent)`;
  return [c.runtime && `zone ${c.runtime} (runtime)`, c.permanent && `zone ${c.permanent} (permanent)`].filter(Boolean).join(' and ');
}

export function zoneConflictError(kind: string, value: string, target: string, c: BoundZones | undefined): HostwireError {
  const where = c ? describeBinding(c) : 'another zone';
  const first = c?.runtime ?? c?.permanent;
  const fix = first
    ? `remove it there first (firewall-cmd --zone ${first} --remove-${kind} ${value}, with and without --permanent) or manage it in zone ${first}`
    : `find its zone with firewall-cmd --get-zone-of-${kind} ${value} and remove it there first`;
  return new HostwireError('command-failed', `firewalld ZONE_CONFLICT: ${kind} ${value} is bound to ${where}; cannot also add it to zone ${target}: ${fix}`);
}

/** firewall-cmd's error line (`Error: ZONE_CONFLICT: '10.99.0.0/16' already bound to a zone`) -> code + detail. */
export function parseFirewallError(stderr: string): { code: string; detail: string } | undefined {
  const m = /^Error: ([A-Z_]+)(?::\s*(.*))?$/m.exec(stderr);
  return m ? { code: m[1], detail: (m[2] ?? '').trim() } : undefined;
}

/** ZONE_CONFLICT, or firewalld 1.3's permanent interface variant: INVALID_INTERFACE "... already bound to zone 'x'". */
export function isBindingConflict(e: { code: string; detail: string } | undefined): boolean {
  return e !== undefined && (e.code === 'ZONE_CONFLICT' || /already bound to/.test(e.detail));
}

/** Output of `firewall-cmd [--permanent] --get-zone-of-<kind> X` (rc 2 and "no zone" when unbound). */
export function parseZoneOf(stdout: string, rc: number): string | undefined {
  const z = stdout.trim();
  return rc === 0 && z && z !== 'no zone' ? z : undefined;
}

/** Both answers of `firewall-cmd --get-zone-of-X V; echo "::rc $?"; firewall-cmd --permanent ...; echo "::rc $?"`. */
export function parseZonesOf(stdout: string): BoundZones {
  const parts = [...stdout.matchAll(/([^]*?)^::rc (\d+)$/gm)].map((m) => parseZoneOf(m[1], Number(m[2])));
  return { runtime: parts[0], permanent: parts[1] };
}
