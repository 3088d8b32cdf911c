// The pure decision both stores share: keep the stored config or create it (a different stored
// config is refused), reuse the node's lease, update its attributes, or choose a new subnet.
import { type Cidr, formatCidr, parseCidr } from '../cidr.js';
import { SdnInputError } from '../errors.js';
import { type FlannelConfigJson, type Pool, chooseSubnet, configDifferences, fitsPool } from '../pool.js';
import type { AllocateRequest, Lease, NodeRef, Snapshot } from './types.js';

export type MatchBy = 'node' | 'public_ip';

export interface Decision {
  /** The config as it is stored, or as it will be created. */
  config: FlannelConfigJson;
  configCreate: boolean;
  /** The node's lease as it will be after the change. */
  lease: Lease;
  action: 'reused' | 'updated' | 'allocated';
  /** This node's leases that do not fit the config: deleted, as flanneld does. */
  drop: Lease[];
  /** The new OpenShift cursor, when a subnet was chosen in that style. */
  cursor?: number;
}

export function leaseCidr(l: Lease): Cidr | undefined {
  try {
    return parseCidr(l.subnet);
  } catch {
    return undefined;
  }
}

export function isMine(l: Lease, ref: NodeRef, by: MatchBy): boolean {
  return by === 'node' ? l.node === ref.node : ref.publicIp !== undefined && l.public_ip === ref.publicIp;
}

/** Refuses a config change: it would move every node's subnet. `where` names the stored config. */
export function checkConfig(stored: FlannelConfigJson | undefined, storedStyle: string | undefined, req: Pick<AllocateRequest, 'pool' | 'backendType'>, where: string): void {
  const diffs = stored ? configDifferences(stored, req.pool, req.backendType) : [];
  if (storedStyle && storedStyle !== req.pool.style) diffs.push(`style is ${storedStyle}, the task asks for ${req.pool.style}`);
  if (diffs.length === 0) return;
  throw new SdnInputError(
    `refusing to change the network config in ${where}: ${diffs.join('; ')}. ` +
      'hostwire never changes the cluster network, subnet length or range of an existing cluster, because every node subnet and route ' +
      'would move. Keep the stored values, or release every lease (state: absent on all nodes) and delete the config by hand first.',
  );
}

export function decideAllocation(snap: Snapshot, req: AllocateRequest, by: MatchBy, where: string): Decision {
  checkConfig(snap.config, snap.style, req, where);
  if (by === 'public_ip' && !req.publicIp) throw new SdnInputError('public_ip: required to find the node lease in etcd (flannel matches leases by PublicIP); got nothing');
  const config = snap.config ?? req.config;
  const ref: NodeRef = { node: req.node, publicIp: req.publicIp };
  const mine = snap.leases.filter((l) => isMine(l, ref, by));
  const fits = (l: Lease) => {
    const c = leaseCidr(l);
    return c !== undefined && fitsPool(req.pool, c);
  };
  const keep = mine.find(fits);
  const drop = mine.filter((l) => !fits(l));
  const want = (subnet: string): Lease => ({
    subnet,
    ...(req.publicIp ? { public_ip: req.publicIp } : {}),
    backend_type: req.backendType,
    ...(by === 'node' ? { node: req.node } : {}),
  });
  if (keep) {
    const lease = { ...keep, ...want(keep.subnet) };
    const same = keep.public_ip === lease.public_ip && keep.backend_type === lease.backend_type && keep.node === lease.node;
    return { config, configCreate: !snap.config, lease, action: same ? 'reused' : 'updated', drop };
  }
  const taken = snap.leases.filter((l) => !drop.includes(l)).map(leaseCidr).filter((c): c is Cidr => c !== undefined);
  const r = chooseSubnet(req.pool, taken, { cursor: snap.cursor, pick: req.pick, rand: req.rand });
  return { config, configCreate: !snap.config, lease: want(formatCidr(r.subnet)), action: 'allocated', drop, cursor: r.cursor };
}

export function sortLeases(ls: Lease[]): Lease[] {
  const key = (l: Lease) => leaseCidr(l);
  return [...ls].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (!x || !y) return a.subnet < b.subnet ? -1 : 1;
    return x.base < y.base ? -1 : x.base > y.base ? 1 : x.prefix - y.prefix;
  });
}

/** The effective pool as a short text for messages. */
export const describePool = (p: Pool): string => `${formatCidr(p.network)} /${p.subnetLen} (${p.style})`;
