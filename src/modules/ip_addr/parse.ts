// Pure parser for `ip -j addr show` (recorded in cases/addrs.json) and address normalisation.
import ipaddr from 'ipaddr.js';
import { parseIpJson } from '../kit/ip-json.js';

export interface AddrEntry {
  /** Canonical `address/prefix`. */
  cidr: string;
  family: 'inet' | 'inet6';
  scope: string;
}

interface IpAddrJson {
  ifname: string;
  addr_info?: { family: string; local: string; prefixlen: number; scope?: string }[];
}

/** `2001:DB8::1/64` -> `2001:db8::1/64`; a bare address gets /32 or /128. Throws on garbage. */
export function canonicalCidr(text: string): string {
  const [addr, len] = text.split('/');
  const ip = ipaddr.parse(addr);
  const max = ip.kind() === 'ipv6' ? 128 : 32;
  const prefix = len === undefined ? max : Number(len);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || !/^\d*$/.test(len ?? '')) throw new Error(`bad prefix length in ${text}`);
  return `${ip.toString()}/${prefix}`;
}

/** Addresses by device name. */
export function parseAddrs(text: string): Map<string, AddrEntry[]> {
  const out = new Map<string, AddrEntry[]>();
  for (const l of parseIpJson<IpAddrJson>(text, 'ip -j addr show')) {
    out.set(
      l.ifname,
      (l.addr_info ?? []).map((a) => ({ cidr: canonicalCidr(`${a.local}/${a.prefixlen}`), family: a.family === 'inet6' ? 'inet6' : 'inet', scope: a.scope ?? 'global' })),
    );
  }
  return out;
}
