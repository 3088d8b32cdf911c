// One view over both allocation styles. The stores and the CLI use only this file.
import { type Cidr, compareCidr, familyBits, formatCidr, formatIp, parseCidr } from './cidr.js';
import { SdnInputError } from './errors.js';
import { type FlannelNames, type FlannelPool, type Pick, flannelAllocate, flannelFree, flannelPool, fitsFlannelPool, poolSubnetCount } from './flannel.js';
import { type OpenshiftLayout, openshiftAllocate, openshiftLayout, openshiftOrder } from './openshift.js';

export type Style = 'flannel' | 'openshift';

export interface PoolInput {
  network: string;
  subnetLen?: number;
  subnetMin?: string;
  subnetMax?: string;
  style?: Style;
}

export type Pool =
  | ({ style: 'flannel' } & FlannelPool)
  | { style: 'openshift'; network: Cidr; subnetLen: number; layout: OpenshiftLayout };

export function resolvePool(input: PoolInput, names?: Partial<FlannelNames & { style: string }>): Pool {
  const n: FlannelNames = { network: 'network', subnetLen: 'subnet_len', subnetMin: 'subnet_min', subnetMax: 'subnet_max', ...names };
  const style = input.style ?? 'flannel';
  if (style === 'flannel') return { style, ...flannelPool(input, n) };
  if (style !== 'openshift') throw new SdnInputError(`${names?.style ?? 'style'}: expected flannel or openshift, got '${String(style)}'`);
  if (input.subnetMin || input.subnetMax) throw new SdnInputError(`${n.subnetMin}/${n.subnetMax}: only style flannel has a subnet range; style openshift uses the whole network`);
  const network = parseCidr(input.network, n.network);
  if (input.subnetLen === undefined) throw new SdnInputError(`${n.subnetLen}: style openshift needs the subnet length (OpenShift's default is /23: hostsubnetlength 9)`);
  if (!Number.isInteger(input.subnetLen) || input.subnetLen < network.prefix || input.subnetLen > 31) {
    const len = Number(input.subnetLen);
    throw new SdnInputError(
      `${n.subnetLen}: a /${len} subnet (hostsubnetlength ${32 - len}) does not fit into ${formatCidr(network)}; expected /${network.prefix} to /31 (hostsubnetlength 1 to ${32 - network.prefix})`,
    );
  }
  return { style, network, subnetLen: input.subnetLen, layout: openshiftLayout(network, 32 - input.subnetLen, n.subnetLen) };
}

/** Whether an existing lease fits the pool (else it is incompatible and must not be reused). */
export function fitsPool(p: Pool, sn: Cidr): boolean {
  if (p.style === 'flannel') return fitsFlannelPool(p, sn);
  return sn.family === 4 && sn.prefix === p.subnetLen && sn.base >= p.network.base && sn.base < p.network.base + (1n << BigInt(32 - p.network.prefix));
}

export function poolSize(p: Pool): bigint {
  return p.style === 'flannel' ? poolSubnetCount(p) : BigInt(p.layout.count);
}

export interface ChooseOptions {
  /** OpenShift's round-robin cursor (0 when unknown). */
  cursor?: number;
  pick?: Pick;
  rand?: () => number;
}

/** A free subnet for a new lease, and the cursor to keep (openshift style). */
export function chooseSubnet(p: Pool, leases: Cidr[], o: ChooseOptions = {}): { subnet: Cidr; cursor?: number } {
  if (p.style === 'flannel') return { subnet: flannelAllocate(p, leases, o.pick ?? 'lowest', o.rand) };
  const exact = new Set(leases.filter((l) => l.prefix === p.subnetLen).map((l) => l.base));
  const odd = leases.filter((l) => l.prefix !== p.subnetLen);
  const last = (c: Cidr) => c.base + (1n << BigInt(32 - c.prefix)) - 1n;
  const taken = (c: Cidr) => exact.has(c.base) || odd.some((l) => l.base <= last(c) && c.base <= last(l));
  const r = openshiftAllocate(p.layout, taken, o.cursor ?? 0);
  return { subnet: r.subnet, cursor: r.next };
}

/** The order in which `count` new leases would be given out, after the existing ones. */
export function planOrder(p: Pool, count: number, leases: Cidr[] = [], cursor = 0): Cidr[] {
  if (p.style === 'flannel') return flannelFree(p, leases, count);
  if (leases.length === 0) return openshiftOrder(p.layout, count, cursor);
  const out: Cidr[] = [];
  let taken = [...leases];
  let next = cursor;
  for (let i = 0; i < count; i++) {
    try {
      const r = chooseSubnet(p, taken, { cursor: next });
      out.push(r.subnet);
      taken = [...taken, r.subnet];
      next = r.cursor ?? 0;
    } catch {
      break;
    }
  }
  return out;
}

/** flannel's JSON network config for this pool. SubnetMin/Max are written only when they were given. */
export function flannelConfig(p: Pool, backendType: string, given: { subnetMin?: boolean; subnetMax?: boolean } = {}): FlannelConfigJson {
  const cfg: FlannelConfigJson = { Network: formatCidr(p.network), SubnetLen: p.subnetLen };
  if (p.style === 'flannel' && given.subnetMin) cfg.SubnetMin = formatIp(p.network.family, p.subnetMin);
  if (p.style === 'flannel' && given.subnetMax) cfg.SubnetMax = formatIp(p.network.family, p.subnetMax);
  if (p.style === 'openshift') {
    // OpenShift hands out the network's first subnet too; flanneld's default SubnetMin skips it and would
    // delete that lease as incompatible. Writing the whole range keeps a later flanneld content.
    const size = 1n << BigInt(32 - p.subnetLen);
    cfg.SubnetMin = formatIp(4, p.network.base);
    cfg.SubnetMax = formatIp(4, p.network.base + (1n << BigInt(32 - p.network.prefix)) - size);
  }
  cfg.Backend = { Type: backendType };
  return cfg;
}

export interface FlannelConfigJson {
  Network: string;
  SubnetLen?: number;
  SubnetMin?: string;
  SubnetMax?: string;
  Backend?: { Type?: string; [k: string]: unknown };
  [k: string]: unknown;
}

/**
 * Differences between a stored config and the wanted pool, compared by effective value (a stored
 * config without SubnetLen means flannel's default). [] when they agree.
 */
export function configDifferences(stored: FlannelConfigJson, want: Pool, backendType: string): string[] {
  const out: string[] = [];
  let have: Pool;
  try {
    // OpenShift style owns the whole network: a stored SubnetMin/Max (written by hostwire) is not compared.
    const range = want.style === 'flannel' ? { subnetMin: stored.SubnetMin, subnetMax: stored.SubnetMax } : {};
    have = resolvePool({ network: String(stored.Network ?? ''), subnetLen: stored.SubnetLen, ...range, style: want.style });
  } catch (e) {
    return [`the stored config is not usable: ${(e as Error).message}`];
  }
  if (formatCidr(have.network) !== formatCidr(want.network)) out.push(`Network is ${formatCidr(have.network)}, the task asks for ${formatCidr(want.network)}`);
  if (have.subnetLen !== want.subnetLen) out.push(`SubnetLen is ${have.subnetLen}, the task asks for ${want.subnetLen}`);
  if (have.style === 'flannel' && want.style === 'flannel' && out.length === 0) {
    const f = have.network.family;
    if (have.subnetMin !== want.subnetMin) out.push(`SubnetMin is ${formatIp(f, have.subnetMin)}, the task asks for ${formatIp(f, want.subnetMin)}`);
    if (have.subnetMax !== want.subnetMax) out.push(`SubnetMax is ${formatIp(f, have.subnetMax)}, the task asks for ${formatIp(f, want.subnetMax)}`);
  }
  const bt = stored.Backend?.Type ?? 'udp'; // flannel's parseBackendType: no Backend means udp
  if (bt !== backendType) out.push(`Backend.Type is ${bt}, the task asks for ${backendType}`);
  return out;
}

export const sortCidrs = (xs: Cidr[]): Cidr[] => [...xs].sort(compareCidr);
export const hostBitsOf = (p: Pool): number => familyBits(p.network.family) - p.subnetLen;
