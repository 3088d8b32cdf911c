// Default routes, v4 and v6, from `ip -j route show default`. An empty list is normal (no route,
// IPv6 disabled); rc != 0 with no JSON means the family is unavailable.
import { ProbeParseError } from '../errors.js';
import type { FactProbe } from './types.js';
import type { ProbeOutput } from '../probe/types.js';
import { parseToolJson } from '../probe/tool-json.js';

export interface DefaultRoute {
  interface: string;
  gateway?: string;
  metric?: number;
}

interface RouteJson { dst: string; gateway?: string; dev?: string; metric?: number }

export function parseDefaultRoutes(out: ProbeOutput): DefaultRoute[] {
  const text = out.stdout.trim();
  if (!text) {
    if (out.rc === 0 || out.rc === 2 || out.rc === 255) return []; // family disabled / not supported
    throw new ProbeParseError(`ip route failed (rc=${out.rc})`, out.stdout);
  }
  const data = parseToolJson<RouteJson[]>(text, 'ip -j route', ['dev', 'dst']);
  // Lowest metric first, as the kernel prefers it.
  return data
    .filter((r) => r.dst === 'default' && r.dev)
    .map((r) => ({ interface: r.dev!, ...(r.gateway ? { gateway: r.gateway } : {}), ...(r.metric !== undefined ? { metric: r.metric } : {}) }))
    .sort((a, b) => (a.metric ?? 0) - (b.metric ?? 0));
}

export const defaultRouteV4Fact: FactProbe<DefaultRoute[]> = { id: 'route4', command: 'ip -j route show default', parse: parseDefaultRoutes };
export const defaultRouteV6Fact: FactProbe<DefaultRoute[]> = { id: 'route6', command: 'ip -j -6 route show default', parse: parseDefaultRoutes };
