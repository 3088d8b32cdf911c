// Pure parser for `ip -j route show table all` and its -6 twin (recorded in cases/routes.json).
import ipaddr from 'ipaddr.js';
import { parseIpJson } from './ip-json.js';

export interface RouteEntry {
  family: 4 | 6;
  /** Canonical network/prefix: `0.0.0.0/0`, `198.51.100.0/24`, `10.0.0.1/32`. */
  dst: string;
  via?: string;
  dev?: string;
  metric: number;
  table: string;
}

interface IpRouteJson {
  type?: string;
  dst: string;
  gateway?: string;
  dev?: string;
  metric?: number;
  table?: string;
}

/** Canonical network form of a route destination (`default` included). */
export function canonicalDst(dst: string, family: 4 | 6): string {
  if (dst === 'default') return family === 6 ? '::/0' : '0.0.0.0/0';
  const [addr, len] = dst.split('/');
  const ip = ipaddr.parse(addr);
  const max = ip.kind() === 'ipv6' ? 128 : 32;
  const prefix = len === undefined ? max : Number(len);
  const bytes = ip.toByteArray();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    bytes[i] &= (0xff << (8 - keep)) & 0xff;
  }
  return `${ipaddr.fromByteArray(bytes).toString()}/${prefix}`;
}

/** Table names as ip prints them: 254 is main, 255 local. */
export function canonicalTable(t: string | number | undefined): string {
  const s = t === undefined ? 'main' : String(t);
  return s === '254' ? 'main' : s === '255' ? 'local' : s;
}

/** Unicast routes only (local/broadcast/multicast entries are the kernel's). */
export function parseRoutes(text: string, family: 4 | 6): RouteEntry[] {
  return parseIpJson<IpRouteJson>(text, `ip -j -${family} route show table all`)
    .filter((r) => r.type === undefined || r.type === 'unicast')
    .map((r) => ({
      family,
      dst: canonicalDst(r.dst, family),
      via: r.gateway ? ipaddr.parse(r.gateway).toString() : undefined,
      dev: r.dev,
      metric: r.metric ?? 0,
      table: canonicalTable(r.table),
    }));
}
