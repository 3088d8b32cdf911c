// Pure parts of route_set: reading `ip -j -4 route show table T` and deciding which routes of a
// managed network are missing, wrong or stale. Recorded outputs live in cases/.
import { HostwireError } from '../../errors.js';
import { need, readSections } from '../../probe/sections.js';
import { canonicalDst, parseRoutes, type RouteEntry } from '../kit/ip-routes.js';

export interface WantedRoute {
  dst: string;
  via?: string;
  dev?: string;
}

/** The routes of one table, from the probe's `routes` section. */
export function readRouteTable(stdout: string, table: string): RouteEntry[] {
  const s = need(readSections(stdout), 'routes', stdout);
  if (s.rc !== 0) throw new HostwireError('command-failed', `ip route show table ${table} failed: ${s.out.trim()}`);
  return parseRoutes(s.out, 4).map((r) => ({ ...r, table }));
}

const toInt = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);

/** True when `inner` (canonical a.b.c.d/n) lies inside `outer` and is more specific or equal. */
export function within(inner: string, outer: string): boolean {
  const [ia, il] = inner.split('/');
  const [oa, ol] = outer.split('/');
  const ilen = Number(il);
  const olen = Number(ol);
  if (ilen < olen) return false;
  const mask = olen === 0 ? 0 : (0xffffffff << (32 - olen)) >>> 0;
  return ((toInt(ia) & mask) >>> 0) === ((toInt(oa) & mask) >>> 0);
}

export interface RoutePlanInput {
  /** Routes whose destination lies strictly inside this network are managed (canonical CIDR). */
  network: string;
  routes: WantedRoute[];
  /** Destinations inside the network never touched (the node's own subnet on its bridge). */
  keep: string[];
  metric: number;
  purge: boolean;
}

export interface RouteOp {
  op: 'add' | 'replace' | 'del';
  dst: string;
  metric: number;
  via?: string;
  dev?: string;
  /** What the table held before (for del/replace). */
  cur?: RouteEntry;
}

/** The smallest set of operations that makes the managed part of the table exactly `routes`. */
export function planRouteOps(table: RouteEntry[], w: RoutePlanInput): RouteOp[] {
  const network = canonicalDst(w.network, 4);
  const keep = new Set(w.keep.map((k) => canonicalDst(k, 4)));
  const wanted = new Map(w.routes.map((r) => [canonicalDst(r.dst, 4), r]));
  const ops: RouteOp[] = [];
  for (const [dst, r] of wanted) {
    const cur = table.find((x) => x.dst === dst && x.metric === w.metric);
    const same = cur && (r.via === undefined || cur.via === r.via) && (r.dev === undefined || cur.dev === r.dev);
    if (!same) ops.push({ op: cur ? 'replace' : 'add', dst, metric: w.metric, via: r.via, dev: r.dev, cur });
  }
  if (w.purge) {
    for (const cur of table) {
      // The whole network itself (e.g. a VPN's route) is not ours; only its subnets are.
      if (cur.dst === network || !within(cur.dst, network) || keep.has(cur.dst)) continue;
      if (wanted.has(cur.dst) && cur.metric === w.metric) continue;
      ops.push({ op: 'del', dst: cur.dst, metric: cur.metric, cur });
    }
  }
  return ops;
}

export const showRoute = (r: { dst: string; via?: string; dev?: string; metric: number }) => `${r.dst}${r.via ? ` via ${r.via}` : ''}${r.dev ? ` dev ${r.dev}` : ''}${r.metric ? ` metric ${r.metric}` : ''}`;
