// The pod subnet each node would get, shown by the wizard: the allocators of src/sdn in the order
// a fresh store gives leases out (flannel: lowest free first; OVN: OpenShift's order).
import { formatCidr } from '../sdn/cidr.js';
import { planOrder, poolSize, resolvePool } from '../sdn/pool.js';
import type { InitAnswers } from './answers.js';

export interface SubnetRow {
  host: string;
  subnet: string;
}

export interface SubnetPreview {
  rows: SubnetRow[];
  /** How many nodes the network can hold with this subnet length. */
  capacity: bigint;
  podsPerNode: number;
  note: string;
}

export function previewSubnets(a: Pick<InitAnswers, 'type' | 'network' | 'subnetLen' | 'hosts'>): SubnetPreview {
  if (a.type === 'microshift') {
    return { rows: a.hosts.map((h) => ({ host: h.name, subnet: a.network })), capacity: 1n, podsPerNode: 2 ** (32 - Number(a.network.split('/')[1])) - 2, note: 'MicroShift gives its single node the whole cluster network' };
  }
  const pool = resolvePool({ network: a.network, subnetLen: a.subnetLen, style: a.type === 'ovn' ? 'openshift' : 'flannel' }, { network: 'network', subnetLen: 'subnet length' });
  const order = planOrder(pool, a.hosts.length);
  return {
    rows: a.hosts.map((h, i) => ({ host: h.name, subnet: order[i] ? formatCidr(order[i]!) : '(no subnet left)' })),
    capacity: poolSize(pool),
    podsPerNode: 2 ** (32 - a.subnetLen) - 2,
    note: a.type === 'ovn' ? 'in the order OpenShift-style allocation gives them out' : 'in the order flannel gives them out from an empty store (lowest first)',
  };
}

export function formatPreview(p: SubnetPreview): string {
  const w = Math.max(4, ...p.rows.map((r) => r.host.length));
  const lines = p.rows.map((r) => `  ${r.host.padEnd(w)}  ${r.subnet}`);
  return `Pod subnets per node (${p.note}):\n${lines.join('\n')}\n  room for ${p.capacity} node(s), ${p.podsPerNode} pod addresses each`;
}
