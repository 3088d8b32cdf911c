// An IP address with its prefix, the way netaddr.IPNetwork sees "192.168.1.10/24": host bits kept,
// arithmetic on BigInt. Parsing and printing go through ipaddr.js.
import ipaddr from 'ipaddr.js';

export interface Net {
  version: 4 | 6;
  ip: bigint;
  prefix: number;
  /** 'network' when the text had a "/prefix", else 'address' (Ansible's vtype). */
  vtype: 'address' | 'network';
}

export const bitsOf = (n: { version: 4 | 6 }): number => (n.version === 4 ? 32 : 128);

function toBig(bytes: number[]): bigint {
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

export function ipToString(ip: bigint, version: 4 | 6): string {
  const len = version === 4 ? 4 : 16;
  const bytes: number[] = [];
  for (let i = len - 1; i >= 0; i--) bytes.push(Number((ip >> BigInt(i * 8)) & 0xffn));
  const addr = ipaddr.fromByteArray(bytes);
  return addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toRFC5952String() : addr.toString();
}

function parseAddr(s: string): { version: 4 | 6; ip: bigint } | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return { version: 4, ip: toBig(ipaddr.IPv4.parse(s).toByteArray()) };
  if (ipaddr.IPv6.isValid(s) && !s.includes('%')) return { version: 6, ip: toBig(ipaddr.IPv6.parse(s).toByteArray()) };
  return undefined;
}

/** "a.b.c.d", "a.b.c.d/nn", "a.b.c.d/255.255.255.0", IPv6 forms; undefined when not an address. */
export function parseNet(value: unknown): Net | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  const slash = s.indexOf('/');
  const addr = parseAddr(slash < 0 ? s : s.slice(0, slash));
  if (!addr) return undefined;
  const bits = addr.version === 4 ? 32 : 128;
  if (slash < 0) return { ...addr, prefix: bits, vtype: 'address' };
  const p = s.slice(slash + 1);
  let prefix: number;
  if (/^\d{1,3}$/.test(p)) prefix = Number(p);
  else if (addr.version === 4 && ipaddr.IPv4.isValidFourPartDecimal(p)) {
    const pl = ipaddr.IPv4.parse(p).prefixLengthFromSubnetMask();
    if (pl === null) return undefined;
    prefix = pl;
  } else return undefined;
  if (prefix > bits) return undefined;
  return { ...addr, prefix, vtype: 'network' };
}

export function mask(n: Net): bigint {
  const bits = BigInt(bitsOf(n));
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(n.prefix))) - 1n);
}
export const network = (n: Net): bigint => n.ip & mask(n);
export const size = (n: Net): bigint => 1n << BigInt(bitsOf(n) - n.prefix);
export const last = (n: Net): bigint => network(n) + size(n) - 1n;
export const str = (ip: bigint, n: Net): string => ipToString(ip, n.version);
/** netaddr str(IPNetwork): the address as given, with its prefix. */
export const cidrOf = (n: Net): string => `${str(n.ip, n)}/${n.prefix}`;
/** netaddr has no broadcast for /31, /32 (and IPv6 /127, /128). */
export const hasBroadcast = (n: Net): boolean => size(n) > 2n;

/** netaddr's IPNetwork.type as ansible.utils reports it. */
export function typeOf(n: Net): 'address' | 'network' {
  return size(n) === 1n || n.ip !== network(n) ? 'address' : 'network';
}
