// flannel's network config rules and subnet choice, as flanneld does them with the etcd registry:
// - defaults and checks: https://github.com/flannel-io/flannel/blob/master/pkg/subnet/config.go (CheckNetworkConfig)
// - choice: https://github.com/flannel-io/flannel/blob/master/pkg/subnet/etcd/local_manager.go (allocateSubnet:
//   walk from SubnetMin to SubnetMax, skip subnets that overlap a lease, collect at most 100 free ones,
//   take a random one of them; isSubnetConfigCompat: a lease fits when it lies in SubnetMin..SubnetMax
//   and has SubnetLen).
// - lease keys: pkg/subnet MakeSubnetKey, "10.1.15.0-24" (and "&<v6 net>-<len>" for dual stack, not used here).
import { type Cidr, type Family, familyBits, formatCidr, formatIp, containsIp, overlaps, parseCidr } from './cidr.js';
import { SdnInputError, SubnetsExhaustedError } from './errors.js';

export interface FlannelPool {
  network: Cidr;
  subnetLen: number;
  /** Base address of the first and last subnet that may be given out. */
  subnetMin: bigint;
  subnetMax: bigint;
}

interface FamilyRules { maxLen: number; smallest: number; bigEnough: number; defaultLen: number }
// flannel: v4 SubnetLen <= 30, network at most /28, /22 or larger gets /24; v6: 126, /124, /62 -> /64.
const RULES: Record<Family, FamilyRules> = {
  4: { maxLen: 30, smallest: 28, bigEnough: 22, defaultLen: 24 },
  6: { maxLen: 126, smallest: 124, bigEnough: 62, defaultLen: 64 },
};

export interface FlannelNames { network: string; subnetLen: string; subnetMin: string; subnetMax: string }
const DEFAULT_NAMES: FlannelNames = { network: 'network', subnetLen: 'subnet_len', subnetMin: 'subnet_min', subnetMax: 'subnet_max' };

/** flannel's SubnetLen default: /24 when the network is /22 or larger, else prefix + 2 (four subnets). */
export function defaultSubnetLen(network: Cidr, names: FlannelNames = DEFAULT_NAMES): number {
  const r = RULES[network.family];
  if (network.prefix > r.smallest) {
    throw new SdnInputError(`${names.network}: ${formatCidr(network)} is too small for flannel; the minimum useful network prefix is /${r.smallest}`);
  }
  return network.prefix <= r.bigEnough ? r.defaultLen : network.prefix + 2;
}

function parseBoundary(text: string, network: Cidr, len: number, what: string): bigint {
  // flannel stores SubnetMin/Max as addresses; a CIDR-looking value is accepted when its length is SubnetLen.
  const s = String(text).trim();
  const c = s.includes('/') ? parseCidr(s, what) : parseCidr(`${s}/${familyBits(network.family)}`, what);
  if (s.includes('/') && c.prefix !== len) throw new SdnInputError(`${what}: '${s}' is not a /${len} subnet; expected an address on a /${len} boundary`);
  if (!containsIp(network, c.family, c.base)) throw new SdnInputError(`${what}: ${formatIp(c.family, c.base)} is not in the range of the network ${formatCidr(network)}`);
  const mask = (1n << BigInt(familyBits(network.family) - len)) - 1n;
  if ((c.base & mask) !== 0n) throw new SdnInputError(`${what}: ${formatIp(c.family, c.base)} is not on a /${len} boundary; expected ${formatIp(c.family, c.base & ~mask)}`);
  return c.base;
}

/** CheckNetworkConfig: the effective pool with flannel's defaults filled in. */
export function flannelPool(input: { network: string | Cidr; subnetLen?: number; subnetMin?: string; subnetMax?: string }, names: FlannelNames = DEFAULT_NAMES): FlannelPool {
  const network = typeof input.network === 'string' ? parseCidr(input.network, names.network) : input.network;
  const r = RULES[network.family];
  let len = input.subnetLen;
  if (len === undefined || len === 0) len = defaultSubnetLen(network, names);
  else {
    if (!Number.isInteger(len) || len < 0) throw new SdnInputError(`${names.subnetLen}: expected a prefix length between ${network.prefix + 2} and ${r.maxLen}, got ${len}`);
    if (len > r.maxLen) throw new SdnInputError(`${names.subnetLen}: /${len} leaves no room for a bridge and a gateway; expected ${r.maxLen} or less`);
    if (len < network.prefix + 2) {
      throw new SdnInputError(`${names.subnetLen}: ${formatCidr(network)} must be able to hold at least four /${len} subnets; expected ${network.prefix + 2} or more, got ${len}`);
    }
  }
  const size = 1n << BigInt(familyBits(network.family) - len);
  const end = network.base + (1n << BigInt(familyBits(network.family) - network.prefix));
  // flannel skips the first subnet: a bridge holding the network address itself causes trouble.
  const subnetMin = input.subnetMin ? parseBoundary(input.subnetMin, network, len, names.subnetMin) : network.base + size;
  const subnetMax = input.subnetMax ? parseBoundary(input.subnetMax, network, len, names.subnetMax) : end - size;
  if (subnetMin > subnetMax) {
    throw new SdnInputError(`${names.subnetMin}/${names.subnetMax}: ${formatIp(network.family, subnetMin)} is above ${formatIp(network.family, subnetMax)}; expected subnet_min <= subnet_max`);
  }
  return { network, subnetLen: len, subnetMin, subnetMax };
}

export const poolSubnetCount = (p: FlannelPool): bigint => (p.subnetMax - p.subnetMin) / (1n << BigInt(familyBits(p.network.family) - p.subnetLen)) + 1n;

/** isSubnetConfigCompat: the lease lies between SubnetMin and SubnetMax and has SubnetLen. */
export function fitsFlannelPool(p: FlannelPool, sn: Cidr): boolean {
  return sn.family === p.network.family && sn.prefix === p.subnetLen && sn.base >= p.subnetMin && sn.base <= p.subnetMax;
}

/** How flannel picks among the free subnets: `random` as flanneld, `lowest` so a plan can be shown ahead. */
export type Pick = 'lowest' | 'random';

const FLANNEL_WINDOW = 100;

/** allocateSubnet: the free candidates (at most 100, from SubnetMin up), then one of them. */
export function flannelAllocate(p: FlannelPool, leases: Cidr[], pick: Pick = 'lowest', rand: () => number = Math.random): Cidr {
  const free = flannelFree(p, leases, pick === 'random' ? FLANNEL_WINDOW : 1);
  if (free.length === 0) {
    const total = poolSubnetCount(p);
    throw new SubnetsExhaustedError(
      `network ${formatCidr(p.network)} with subnet_len ${p.subnetLen} is exhausted: ${total} of ${total} subnets between ` +
        `${formatIp(p.network.family, p.subnetMin)} and ${formatIp(p.network.family, p.subnetMax)} are leased`,
    );
  }
  return pick === 'random' ? free[Math.floor(rand() * free.length) % free.length] : free[0];
}

/** Up to `limit` free subnets in address order. */
export function flannelFree(p: FlannelPool, leases: Cidr[], limit: number): Cidr[] {
  const step = 1n << BigInt(familyBits(p.network.family) - p.subnetLen);
  const exact = new Set(leases.filter((l) => l.prefix === p.subnetLen).map((l) => l.base));
  const odd = leases.filter((l) => l.prefix !== p.subnetLen);
  const out: Cidr[] = [];
  for (let ip = p.subnetMin; ip <= p.subnetMax && out.length < limit; ip += step) {
    const sn: Cidr = { family: p.network.family, base: ip, prefix: p.subnetLen };
    if (exact.has(ip) || odd.some((l) => overlaps(l, sn))) continue;
    out.push(sn);
  }
  return out;
}

/** The etcd key suffix flannel uses for a subnet: 10.1.15.0-24. */
export function subnetKey(sn: Cidr): string {
  return `${formatIp(sn.family, sn.base)}-${sn.prefix}`;
}

/** Inverse of subnetKey; undefined for keys that are not leases. Dual-stack keys keep their IPv4 part. */
export function parseSubnetKey(key: string): Cidr | undefined {
  const m = /(\d+\.\d+\.\d+\.\d+)-(\d+)(?:&([a-f\d:]+)-(\d+))?$/.exec(key);
  if (!m) return undefined;
  try {
    return parseCidr(`${m[1]}/${m[2]}`);
  } catch {
    return undefined;
  }
}
