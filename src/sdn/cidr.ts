// CIDR math on bigints, for IPv4 and IPv6 alike. ipaddr.js parses and prints addresses. This file
// only does the bit arithmetic that ipaddr.js has no function for.
import ipaddr from 'ipaddr.js';
import { SdnInputError } from './errors.js';

export type Family = 4 | 6;

/** A network: `base` has every host bit cleared. */
export interface Cidr {
  family: Family;
  base: bigint;
  prefix: number;
}

export const familyBits = (f: Family): number => (f === 4 ? 32 : 128);

function bytesToBig(bytes: number[]): bigint {
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

function bigToBytes(v: bigint, n: number): number[] {
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(Number((v >> BigInt(i * 8)) & 0xffn));
  return out;
}

const example = (f?: Family) => (f === 6 ? 'fd00:10::/48' : '10.1.0.0/16');

/** An address. IPv4 must be in dotted-quad form (Go's net.ParseIP, used by flannel, accepts only that). */
export function parseIp(text: string, what = 'address'): { family: Family; value: bigint } {
  const s = String(text).trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return { family: 4, value: bytesToBig(ipaddr.IPv4.parse(s).toByteArray()) };
  if (s.includes(':') && ipaddr.IPv6.isValid(s)) {
    const a = ipaddr.IPv6.parse(s);
    if (a.isIPv4MappedAddress()) throw new SdnInputError(`${what}: expected an IPv4 or IPv6 address, got the IPv4-mapped '${s}'; write it as ${a.toIPv4Address().toString()}`);
    return { family: 6, value: bytesToBig(a.toByteArray()) };
  }
  throw new SdnInputError(`${what}: expected an IPv4 address like 192.168.0.10 or an IPv6 address, got '${s}'`);
}

export function formatIp(family: Family, value: bigint): string {
  return ipaddr.fromByteArray(bigToBytes(value, family === 4 ? 4 : 16)).toString();
}

export function hostMask(family: Family, prefix: number): bigint {
  return (1n << BigInt(familyBits(family) - prefix)) - 1n;
}

/** A network in CIDR form. Host bits must be zero: `10.1.2.3/16` is refused with the network it probably meant. */
export function parseCidr(text: string, what = 'network'): Cidr {
  const s = String(text).trim();
  const m = /^([^/]+)\/(\d{1,3})$/.exec(s);
  if (!m) throw new SdnInputError(`${what}: expected a CIDR like ${example()}, got '${s}'`);
  const ip = parseIp(m[1], what);
  const prefix = Number(m[2]);
  if (prefix > familyBits(ip.family)) throw new SdnInputError(`${what}: prefix length /${prefix} is longer than ${familyBits(ip.family)} bits in '${s}'`);
  const base = ip.value & ~hostMask(ip.family, prefix);
  if (base !== ip.value) {
    throw new SdnInputError(`${what}: '${s}' has host bits set; expected a network address like ${formatIp(ip.family, base)}/${prefix}`);
  }
  return { family: ip.family, base, prefix };
}

export function formatCidr(c: Cidr): string {
  return `${formatIp(c.family, c.base)}/${c.prefix}`;
}

/** Number of addresses in the network. */
export const cidrSize = (c: Cidr): bigint => 1n << BigInt(familyBits(c.family) - c.prefix);

export const lastAddress = (c: Cidr): bigint => c.base + cidrSize(c) - 1n;

export function containsIp(c: Cidr, family: Family, value: bigint): boolean {
  return c.family === family && value >= c.base && value <= lastAddress(c);
}

/** True when `inner` lies wholly inside `outer`. */
export function containsCidr(outer: Cidr, inner: Cidr): boolean {
  return outer.family === inner.family && inner.prefix >= outer.prefix && containsIp(outer, inner.family, inner.base);
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.family === b.family && a.base <= lastAddress(b) && b.base <= lastAddress(a);
}

export const sameCidr = (a: Cidr, b: Cidr): boolean => a.family === b.family && a.base === b.base && a.prefix === b.prefix;

/** The n-th subnet of length `len` inside `net`, in plain address order. */
export function nthSubnet(net: Cidr, len: number, n: bigint): Cidr {
  return { family: net.family, base: net.base + (n << BigInt(familyBits(net.family) - len)), prefix: len };
}

/** How many subnets of length `len` fit into `net`. */
export function subnetCount(net: Cidr, len: number): bigint {
  return 1n << BigInt(len - net.prefix);
}

export function compareCidr(a: Cidr, b: Cidr): number {
  if (a.family !== b.family) return a.family - b.family;
  return a.base < b.base ? -1 : a.base > b.base ? 1 : a.prefix - b.prefix;
}
