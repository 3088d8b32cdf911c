// What uses the uplink but would not move onto the bridge with it: the move carries the main table's unicast
// routes of the device with their gateway, metric, onlink, preferred source (src) and per-route mtu/advmss
// (uplink-routes.ts; a default route too, at the bridge's metric) and nothing else. Multipath routes
// through it, its routes in other tables, routes with more to them (other per-route metrics such as rtt or
// window, a locked metric, a realm, an expiry...) and policy rules naming it as iif/oif would be left behind on a
// device that no longer holds the addresses, or lose part of what they are; they are refused before any change, each named. Everything here is
// host data: a value is shown JSON-quoted (control bytes escaped) and cut to a bounded prefix.
import { HostwireError } from '../../errors.js';
import type { GatewayState, LockedRoute, Route, Rule } from './parse.js';
import { movableRoutes, ROUTE_METRICS } from './uplink-routes.js';

/** A host value for a message: quoted, escaped, at most `max` characters of it. */
const shown = (v: unknown, max = 60): string => JSON.stringify(String(v).slice(0, max));

/** The keys `ip -j route` prints for a route the move re-creates as it was (besides dst, gateway, dev, metric). */
const PLAIN_KEYS = new Set(['dst', 'gateway', 'dev', 'metric', 'protocol', 'scope', 'flags', 'type', 'table', 'family', 'prefsrc', 'metrics']);
/** Flags that are state, not configuration (onlink moves with the route). */
const PLAIN_FLAGS = new Set(['onlink', 'linkdown']);

/** Per-route metrics beyond mtu/advmss (`metric rtt`), or a `metrics` ip did not print as one object. */
function extraMetrics(r: Route): string[] {
  if (r.metrics === undefined) return [];
  const [m, more] = Array.isArray(r.metrics) ? r.metrics : [];
  if (!m || typeof m !== 'object' || more !== undefined) return ['metrics'];
  return Object.keys(m).filter((k) => !Object.hasOwn(ROUTE_METRICS, k)).map((k) => `metric ${k}`);
}

/** Its metrics locked (`mtu lock 1400`), as the probe's text shows them. */
const lockOf = (r: Route, locked: LockedRoute[] = []): string[] =>
  locked.filter((l) => l.family === r.family && l.dst === r.dst && (l.dev === undefined || l.dev === r.dev)).flatMap((l) => l.locked.map((k) => `${k} lock`));

/** What of a carried route the move would lose: its keys beyond the plain ones, IPv6's pref unless medium. */
export function extraAttributes(r: Route, locked?: LockedRoute[]): string[] {
  const raw = r as unknown as Record<string, unknown>;
  const extra = [...Object.keys(raw).filter((k) => !PLAIN_KEYS.has(k) && !(k === 'pref' && raw[k] === 'medium')), ...extraMetrics(r), ...lockOf(r, locked)];
  const flags = Array.isArray(raw.flags) ? raw.flags.filter((f) => !PLAIN_FLAGS.has(String(f))).map((f) => `flag ${String(f)}`) : [];
  if (raw.scope !== undefined && !['link', 'global', 'universe'].includes(String(raw.scope))) extra.push('scope');
  return [...extra, ...flags];
}

const routeName = (r: Route): string => `${shown(r.dst)}${r.table !== undefined ? ` (table ${shown(r.table, 20)})` : ''}`;

const viaUplink = (r: Route, iface: string): boolean =>
  r.dev === iface || (Array.isArray(r.nexthops) && r.nexthops.some((n) => n && typeof n === 'object' && n.dev === iface));

const ruleNames = (r: Rule, iface: string): boolean => r.iif === iface || r.oif === iface;

/** Every reason the uplink's configuration would not move whole (empty: it moves). `dhcp`: its lease's routes come back by themselves. */
export function unmovable(s: GatewayState, iface: string, dhcp: boolean): string[] {
  const why: string[] = [];
  const dev = shown(iface, 20);
  for (const r of s.routes.filter((x) => viaUplink(x, iface) && x.dev !== iface)) why.push(`the multipath route ${routeName(r)} (IPv${r.family}) has a next hop through ${dev}`);
  for (const r of (s.otherRoutes ?? []).filter((x) => viaUplink(x, iface))) why.push(`the route ${routeName(r)} (IPv${r.family}) through ${dev} is not in the main table`);
  for (const r of movableRoutes(s.routes, iface).filter((x) => !(dhcp && x.family === 4 && x.protocol === 'dhcp'))) {
    const extra = extraAttributes(r, s.lockedRoutes);
    if (extra.length) why.push(`the route ${routeName(r)} (IPv${r.family}) on ${dev} has ${extra.slice(0, 4).map((k) => shown(k, 30)).join(', ')}${extra.length > 4 ? ', ...' : ''}`);
  }
  for (const r of (s.rules ?? []).filter((x) => ruleNames(x, iface))) {
    why.push(`the IPv${r.family} policy rule ${r.priority !== undefined ? `of priority ${shown(r.priority, 10)} ` : ''}names ${dev} as ${r.iif === iface ? 'iif' : 'oif'}`);
  }
  return why;
}

/** Refuses, before any change, an uplink whose routes or rules would not move whole (at most 5 reasons named). */
export function refuseUnmovable(s: GatewayState, iface: string, dhcp: boolean): void {
  const why = unmovable(s, iface, dhcp);
  if (!why.length) return;
  throw new HostwireError('command-failed', `ovs_gateway: the uplink ${shown(iface, 20)} cannot move to the bridge as it is: ${why.slice(0, 5).join('; ')}${why.length > 5 ? `; and ${why.length - 5} more` : ''}. `
    + 'The move carries only main-table routes with a gateway, metric, onlink, src, mtu and advmss (default routes too, at the bridge\'s metric): remove or change these first (or move them by hand after the move).');
}
