// route_set: the routes inside one network (a cluster's pod network) converged to an exact set.
// Missing routes are added, a route with another gateway or device is replaced, and with purge
// (the default) routes inside the network that are not listed (nor kept) are deleted. Routes
// outside the network and the network's own route are never touched. IPv4 (flannel host-gw).
import { z } from 'zod';
import ipaddr from 'ipaddr.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { ifname } from '../kit/ifname.js';
import { requireTool, section } from '../../probe/sections.js';
import { canonicalDst, canonicalTable, type RouteEntry } from '../kit/ip-routes.js';
import { planRouteOps, readRouteTable, showRoute, type RouteOp } from './parse.js';
import { routeSetDoc } from './doc.js';

const v4 = z.string().refine((s) => ipaddr.IPv4.isValidFourPartDecimal(s), 'expected an IPv4 address like 192.0.2.10');
const cidr = z.string().refine((s) => {
  const [a, l] = s.split('/');
  return l !== undefined && /^\d+$/.test(l) && Number(l) <= 32 && ipaddr.IPv4.isValidFourPartDecimal(a);
}, 'expected an IPv4 network like 10.244.0.0/16');

const routeSetArgs = z
  .object({
    network: cidr,
    routes: z.array(z.object({ dst: cidr, via: v4.optional(), dev: ifname.optional() }).strict()
      .refine((r) => r.via !== undefined || r.dev !== undefined, { message: 'a route needs via or dev', path: ['via'] })).default([]),
    keep: z.array(cidr).default([]),
    purge: z.boolean().default(true),
    metric: z.number().int().min(0).default(0),
    table: z.union([z.string().min(1), z.number().int()]).default('main').transform((t) => canonicalTable(t)),
  })
  .strict()
  .superRefine((a, ctx) => {
    const net = canonicalDst(a.network, 4);
    a.routes.forEach((r, i) => {
      const d = canonicalDst(r.dst, 4);
      const [na, nl] = net.split('/');
      if (Number(d.split('/')[1]) <= Number(nl) || canonicalDst(`${d.split('/')[0]}/${nl}`, 4) !== `${na}/${nl}`) ctx.addIssue({ code: 'custom', path: ['routes', i, 'dst'], message: `${r.dst} is not a subnet inside network ${a.network}` });
    });
  });

export type RouteSetArgs = z.infer<typeof routeSetArgs>;

function command(op: RouteOp, table: string): string {
  const key = [op.dst, 'table', table, 'metric', String(op.metric)];
  if (op.op === 'del') return shellJoin(['ip', '-4', 'route', 'del', ...key]);
  return shellJoin(['ip', '-4', 'route', op.op, ...key, ...(op.via ? ['via', op.via] : []), ...(op.dev ? ['dev', op.dev] : [])]);
}

export function planRouteSet(table: RouteEntry[], a: RouteSetArgs): Change[] {
  const ops = planRouteOps(table, { network: a.network, routes: a.routes, keep: a.keep, metric: a.metric, purge: a.purge });
  return ops.map((op) => ({
    summary: op.op === 'add' ? `add route ${showRoute(op)}` : op.op === 'replace' ? `replace route ${showRoute(op.cur!)} with ${showRoute(op)}` : `delete stale route ${showRoute(op.cur!)}`,
    before: op.cur ? `${showRoute(op.cur)}\n` : 'absent\n',
    after: op.op === 'del' ? 'absent\n' : `${showRoute(op)}\n`,
    run: [command(op, a.table)],
    ...(op.op === 'del' ? { disruptive: `removes a route: traffic to ${op.dst} (the SSH session too, if it comes that way) loses its path` } : {}),
  }));
}

export const routeSetModule: Module<RouteSetArgs, RouteEntry[]> = {
  name: 'route_set',
  doc: routeSetDoc,
  args: routeSetArgs,
  probe: (a) => ({
    command: `${requireTool('ip')}; ${section('routes', shellJoin(['ip', '-j', '-4', 'route', 'show', 'table', a.table]))}`,
    parse: (o) => readRouteTable(o.stdout, a.table),
  }),
  plan: (table, a) => planRouteSet(table, a),
};
