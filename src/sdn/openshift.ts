// OpenShift SDN's host subnet allocator, written to behave exactly as the reference code does:
// https://github.com/openshift/sdn/blob/master/pkg/network/master/subnet_allocator.go
// (subnetAllocatorRange: newSubnetAllocatorRange, allocateNetwork, releaseNetwork).
// IPv4 only, as there. The subnet number n is rotated so that subnets with all-zero bits in the
// shared octet come first (10.1.0.0/26, 10.1.1.0/26 ... before 10.1.0.64/26). A cursor (`next`)
// goes round robin and wraps, so a released subnet is only reused after the wrap.
import { type Cidr, formatCidr } from './cidr.js';
import { SdnInputError, SubnetsExhaustedError } from './errors.js';

export interface OpenshiftLayout {
  network: Cidr;
  hostBits: number;
  subnetBits: number;
  leftShift: number;
  leftMask: bigint;
  rightShift: number;
  rightMask: bigint;
  /** 2^subnetBits */
  count: number;
}

export function openshiftLayout(network: Cidr, hostBits: number, what = 'hostsubnetlength'): OpenshiftLayout {
  if (network.family !== 4) throw new SdnInputError(`style openshift supports IPv4 networks only (as openshift/sdn's allocator); got ${formatCidr(network)}`);
  if (!Number.isInteger(hostBits) || hostBits <= 0) throw new SdnInputError(`${what}: host capacity cannot be zero; expected 1..${32 - network.prefix}, got ${hostBits}`);
  if (hostBits > 32 - network.prefix) {
    throw new SdnInputError(`${what}: ${hostBits} host bits do not fit into ${formatCidr(network)}; expected 1..${32 - network.prefix}`);
  }
  const subnetBits = 32 - network.prefix - hostBits;
  if (subnetBits > 30) throw new SdnInputError(`${what}: ${formatCidr(network)} split by ${hostBits} host bits gives 2^${subnetBits} subnets; expected at most 2^30`);
  const div = (a: number) => Math.floor(a / 8);
  // Go's uint32 math: (hostBits-1)/8 and (hostBits+subnetBits-1)/8 truncate.
  if (hostBits % 8 !== 0 && div(hostBits - 1) !== div(hostBits + subnetBits - 1)) {
    const leftShift = 8 - (hostBits % 8);
    return {
      network, hostBits, subnetBits, leftShift,
      leftMask: (1n << BigInt(32 - network.prefix)) - 1n,
      rightShift: subnetBits - leftShift,
      rightMask: ((1n << BigInt(leftShift)) - 1n) << BigInt(hostBits),
      count: 2 ** subnetBits,
    };
  }
  return { network, hostBits, subnetBits, leftShift: 0, leftMask: 0xffffffffn, rightShift: 0, rightMask: 0n, count: 2 ** subnetBits };
}

/** The subnet the allocator hands out for subnet number n (0 <= n < count). */
export function openshiftSubnetAt(l: OpenshiftLayout, n: number): Cidr {
  const shifted = BigInt(n) << BigInt(l.hostBits);
  const u32 = 0xffffffffn;
  // Go shifts uint32 values: bits pushed past 32 are lost before the mask is applied.
  const left = ((shifted << BigInt(l.leftShift)) & u32) & l.leftMask;
  const right = (shifted >> BigInt(l.rightShift)) & l.rightMask;
  return { family: 4, base: l.network.base | left | right, prefix: 32 - l.hostBits };
}

export interface OpenshiftPick {
  subnet: Cidr;
  /** The cursor to store for the next allocation (Go's `snr.next = n + 1`). */
  next: number;
}

/**
 * allocateNetwork(): scan from the cursor, wrapping, for the first subnet not taken.
 * `taken(c)` says whether a subnet is in use. When every subnet is taken the reference resets its
 * cursor to 0 and fails; here that is SubnetsExhaustedError.
 */
export function openshiftAllocate(l: OpenshiftLayout, taken: (c: Cidr) => boolean, next: number): OpenshiftPick {
  for (let i = 0; i < l.count; i++) {
    const n = (i + next) % l.count;
    const sn = openshiftSubnetAt(l, n);
    if (!taken(sn)) return { subnet: sn, next: n + 1 };
  }
  throw new SubnetsExhaustedError(`network ${formatCidr(l.network)} with hostsubnetlength ${l.hostBits} is exhausted: all ${l.count} subnets of /${32 - l.hostBits} are allocated`);
}

/** The first `count` subnets in allocation order on an empty network. */
export function openshiftOrder(l: OpenshiftLayout, count: number, from = 0): Cidr[] {
  const out: Cidr[] = [];
  for (let i = 0; i < Math.min(count, l.count); i++) out.push(openshiftSubnetAt(l, (i + from) % l.count));
  return out;
}
