// How the uplink's IPv6 addresses and default route came to be, read from the live host: SLAAC (the
// kernel's: dynamic + mngtmpaddr; NetworkManager's own: dynamic, noprefixroute, a /64), DHCPv6 (a dynamic
// /128, NM's DHCP6 options name it and the DUID/IAID it used) and a default route from a router
// advertisement (proto ra). On br-ex systemd-networkd brings the same back: a SLAAC address through a
// static token (its interface identifier: NM's stable-privacy identifiers hash the device name, so one
// generated again on br-ex would differ), a DHCPv6 lease through the same DUID and IAID.
import type { Addr, GatewayState, NmDhcp6 } from './parse.js';

export interface Ipv6Auto {
  /** auto: router advertisements (SLAAC and/or DHCPv6 as they say); dhcp: DHCPv6 without them. */
  method: 'auto' | 'dhcp';
  /** `::a:b:c:d`: the interface identifiers of the uplink's SLAAC addresses. */
  tokens: string[];
  /** The DHCPv6 client's DUID (hex bytes, type first) and IAID, as NM's client sent them. */
  duid?: string;
  iaid?: number;
  /** The uplink's IPv6 default route came from router advertisements (an RA with router lifetime 0 gives none). */
  raDefault: boolean;
  /** A DHCPv6 address is on the uplink (NM's lease, or a dynamic /128 whose lease NM does not show). */
  dhcp6Seen?: true;
}

/** The eight 16-bit groups of an IPv6 address. */
export function ipv6Groups(a: string): number[] {
  const [head, tail] = a.includes('::') ? a.split('::') as [string, string] : [a, undefined];
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  if (tail === undefined) return h;
  const t = part(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** `::a:b:c:d`, the address's lower 64 bits (networkd's Token=static: form). */
export const interfaceId = (a: string) => `::${ipv6Groups(a).slice(4).map((g) => g.toString(16)).join(':')}`;

const isDhcp6 = (a: Addr, lease: NmDhcp6 | undefined) => lease?.addrs.includes(a.local) || a.prefixlen === 128;

export function detectIpv6Auto(s: GatewayState, iface: string): Ipv6Auto | undefined {
  const link = s.links.find((l) => l.name === iface);
  const lease = s.nmDhcp6?.[iface];
  // Temporary (privacy) addresses are made again by whoever does SLAAC; they are never moved.
  const dyn = (link?.addrs ?? []).filter((a) => a.family === 'inet6' && a.scope === 'global' && a.dynamic && !a.temporary);
  const slaac = dyn.filter((a) => !isDhcp6(a, lease));
  const dhcp6 = dyn.filter((a) => isDhcp6(a, lease));
  const ra = s.routes.some((r) => r.family === 6 && r.dst === 'default' && r.dev === iface && r.protocol === 'ra');
  if (!ra && dyn.length === 0) return undefined;
  return {
    method: !ra && slaac.length === 0 ? 'dhcp' : 'auto',
    tokens: [...new Set(slaac.map((a) => interfaceId(a.local)))],
    raDefault: ra,
    ...(dhcp6.length ? { dhcp6Seen: true as const } : {}),
    ...(dhcp6.length && lease?.duid ? { duid: lease.duid } : {}),
    ...(dhcp6.length && lease?.iaid !== undefined ? { iaid: lease.iaid } : {}),
  };
}

/** The uplink's addresses that stay static: its SLAAC and DHCPv6 ones come back by themselves. */
export const isAutoAddr = (a: Addr, v6: Ipv6Auto | undefined) => Boolean(v6) && a.family === 'inet6' && a.dynamic;

/** <bridge>.env/.prev lines (none for a static IPv6 uplink: files of earlier runs stay equal). */
export function ipv6EnvPairs(v6: Ipv6Auto | undefined): [string, string][] {
  if (!v6) return [];
  return [['METHOD6', v6.method], ['TOKENS6', v6.tokens.join(' ')], ['DUID6', v6.duid ?? ''], ['IAID6', v6.iaid === undefined ? '' : String(v6.iaid)],
    // Only when RAs give no default route: files written before this key stay equal.
    ...(v6.raDefault ? [] : [['DEFAULT6', 'none'] as [string, string]])];
}

export function ipv6FromEnv(v: Record<string, string>): Ipv6Auto | undefined {
  if (v.METHOD6 !== 'auto' && v.METHOD6 !== 'dhcp') return undefined;
  return {
    method: v.METHOD6, tokens: (v.TOKENS6 ?? '').split(' ').filter(Boolean), raDefault: v.DEFAULT6 !== 'none',
    ...(v.DUID6 ? { duid: v.DUID6 } : {}), ...(v.IAID6 && /^\d+$/.test(v.IAID6) ? { iaid: Number(v.IAID6) } : {}),
  };
}
