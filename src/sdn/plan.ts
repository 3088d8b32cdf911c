// Which node has or would get which subnet: the plan `hostwire subnets -i` shows before a run.
// Pure: the stored snapshot and the inventory's nodes in, one row per node plus stale leases out.
import { SubnetsExhaustedError } from './errors.js';
import { flannelConfig, type Pool } from './pool.js';
import { checkConfig, decideAllocation, isMine, leaseCidr, sortLeases, type MatchBy } from './store/decide.js';
import type { Lease, Snapshot } from './store/types.js';
import { fitsPool } from './pool.js';

export interface PlanNode {
  node: string;
  publicIp?: string;
}

export type PlanStatus = 'has' | 'would get' | 'no subnet left' | 'no public ip';

export interface PlanRow {
  node: string;
  public_ip?: string;
  subnet?: string;
  status: PlanStatus;
  /** A lease of this node that does not fit the config and would be replaced. */
  replaces?: string;
}

export interface Plan {
  rows: PlanRow[];
  /** Leases no inventory node owns (by name in the file store, by PublicIP in etcd). */
  stale: Lease[];
  /** Further leases of a node that already has one (two installers raced for the same PublicIP). */
  duplicates: (Lease & { of: string })[];
  /** The config would be created by the first run. */
  configMissing: boolean;
}

/** Simulates the runs in inventory order (lowest pick), so "would get" is what a run gives. */
export function planNodes(pool: Pool, snap: Snapshot, nodes: PlanNode[], by: MatchBy, backendType = 'host-gw', where = 'the store'): Plan {
  // A run would refuse a different stored config before anything else: so does the plan.
  checkConfig(snap.config, snap.style, { pool, backendType }, where);
  let cur: Snapshot = { ...snap, leases: [...snap.leases] };
  const rows: PlanRow[] = [];
  const duplicates: (Lease & { of: string })[] = [];
  for (const n of nodes) {
    const ref = { node: n.node, publicIp: n.publicIp };
    if (by === 'public_ip' && !n.publicIp) {
      rows.push({ node: n.node, status: 'no public ip' });
      continue;
    }
    const fitting = cur.leases.filter((l) => {
      const c = leaseCidr(l);
      return isMine(l, ref, by) && c !== undefined && fitsPool(pool, c);
    });
    const base = { node: n.node, ...(n.publicIp ? { public_ip: n.publicIp } : {}) };
    if (fitting.length > 0) {
      rows.push({ ...base, subnet: fitting[0].subnet, status: 'has' });
      duplicates.push(...fitting.slice(1).map((l) => ({ ...l, of: n.node })));
      continue;
    }
    try {
      const d = decideAllocation(cur, { pool, config: flannelConfig(pool, backendType), backendType, node: n.node, publicIp: n.publicIp, pick: 'lowest' }, by, where);
      rows.push({ ...base, subnet: d.lease.subnet, status: 'would get', ...(d.drop.length ? { replaces: d.drop.map((l) => l.subnet).join(', ') } : {}) });
      cur = { ...cur, cursor: d.cursor ?? cur.cursor, leases: [...cur.leases.filter((l) => !d.drop.includes(l)), d.lease] };
    } catch (e) {
      if (!(e instanceof SubnetsExhaustedError)) throw e;
      rows.push({ ...base, status: 'no subnet left' });
    }
  }
  const stale = sortLeases(snap.leases.filter((l) => !nodes.some((n) => isMine(l, { node: n.node, publicIp: n.publicIp }, by))));
  return { rows, stale, duplicates, configMissing: !snap.config };
}
