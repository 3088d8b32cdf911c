// ip_route: one route, keyed by (destination, table, metric). A route with that key but another
// gateway or device is replaced (`ip route replace`), never duplicated.
import { z } from 'zod';
import ipaddr from 'ipaddr.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { ifname } from '../kit/ifname.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { canonicalDst, canonicalTable, parseRoutes, type RouteEntry } from '../kit/ip-routes.js';
import { ipRouteDoc } from './doc.js';

const ip = z.string().refine((s) => ipaddr.isValid(s), 'expected an IP address');
const dst = z.string().refine((s) => {
  try {
    return s === 'default' || (canonicalDst(s, s.includes(':') ? 6 : 4), true);
  } catch {
    return false;
  }
}, "expected 'default' or a network like 198.51.100.0/24");

const ipRouteArgs = z
  .object({
    dst,
    via: ip.optional(),
    dev: ifname.optional(),
    metric: z.number().int().min(0).optional(),
    table: z.union([z.string(), z.number().int()]).optional(),
    family: z.union([z.literal(4), z.literal(6)]).optional(),
    state: z.enum(['present', 'absent']).default('present'),
  })
  .strict()
  .refine((a) => a.state === 'absent' || a.via !== undefined || a.dev !== undefined, { message: 'a present route needs via or dev', path: ['via'] });

export type IpRouteArgs = z.infer<typeof ipRouteArgs>;

export function routeFamily(a: IpRouteArgs): 4 | 6 {
  if (a.family) return a.family;
  if (a.dst !== 'default') return a.dst.includes(':') ? 6 : 4;
  return a.via?.includes(':') ? 6 : 4;
}

export function readRoutes(stdout: string): RouteEntry[] {
  const s = readSections(stdout);
  return [...parseRoutes(need(s, 'route4', stdout).out, 4), ...parseRoutes(need(s, 'route6', stdout).out, 6)];
}

const show = (r: RouteEntry | undefined) => (r ? `${r.dst}${r.via ? ` via ${r.via}` : ''}${r.dev ? ` dev ${r.dev}` : ''} metric ${r.metric} table ${r.table}\n` : 'absent\n');

export function planRoute(routes: RouteEntry[], a: IpRouteArgs): Change[] {
  const family = routeFamily(a);
  const want: RouteEntry = {
    family,
    dst: canonicalDst(a.dst, family),
    via: a.via ? ipaddr.parse(a.via).toString() : undefined,
    dev: a.dev,
    // The kernel's defaults when no metric is given: 0 for IPv4, 1024 for IPv6.
    metric: a.metric ?? (family === 6 ? 1024 : 0),
    table: canonicalTable(a.table),
  };
  const cur = routes.find((r) => r.family === family && r.dst === want.dst && r.table === want.table && r.metric === want.metric);
  const words = ['ip', `-${family}`, 'route'];
  const key = [want.dst, 'table', want.table, 'metric', String(want.metric)];
  if (a.state === 'absent') return cur ? [{ summary: `delete route ${want.dst} (table ${want.table})`, before: show(cur), after: 'absent\n', run: [shellJoin([...words, 'del', ...key])], disruptive: `removes a route: traffic to ${want.dst} (the SSH session too, if it comes that way) loses its path` }] : [];
  const same = cur && (want.via === undefined || cur.via === want.via) && (want.dev === undefined || cur.dev === want.dev);
  if (same) return [];
  const nexthop = [...(want.via ? ['via', want.via] : []), ...(want.dev ? ['dev', want.dev] : [])];
  return [{
    summary: cur ? `replace route ${want.dst} (${show(cur).trim()})` : `add route ${want.dst}`,
    before: show(cur),
    after: show(want),
    run: [shellJoin([...words, cur ? 'replace' : 'add', ...key, ...nexthop])],
  }];
}

export const ipRouteModule: Module<IpRouteArgs, RouteEntry[]> = {
  name: 'ip_route',
  doc: ipRouteDoc,
  args: ipRouteArgs,
  probe: () => ({
    command: `${requireTool('ip')}; ${section('route4', 'ip -j -4 route show table all')}; ${section('route6', 'ip -j -6 route show table all')}`,
    parse: (o) => readRoutes(o.stdout),
  }),
  plan: (routes, a) => planRoute(routes, a),
};
