// The cluster network as a picture needs it: nodes with uplink, br-ex and pod subnet, the links
// between nodes (host-gw routes or geneve tunnels), and the F5 with its ramp nodes. Built from
// the inventory's vars, the subnet state store and (optionally) live facts. Pure.
import { formatCidr, parseCidr, type Cidr } from '../sdn/cidr.js';
import { planOrder, resolvePool } from '../sdn/pool.js';
import type { Snapshot } from '../sdn/store/types.js';

export type ClusterKind = 'flannel' | 'ovn' | 'microshift' | 'unknown';

export interface GraphNode {
  name: string;
  role: 'master' | 'node' | 'microshift' | 'ramp';
  address: string;
  /** The uplink NIC's name; '' when unknown (no facts, no variable naming it). */
  uplink: string;
  mtu?: number;
  /** br-ex: 'uplink' when the uplink NIC is a port of it, 'standalone' without a NIC. */
  brEx?: 'uplink' | 'standalone';
  podSubnet?: string;
  /** Where the subnet comes from: the state store, live facts, or the allocator's plan. */
  subnetFrom?: 'store' | 'planned';
  routes: { to: string; via: string; dev: string }[];
  /** In group f5_ramp (or ramp): ends the F5's tunnel. */
  ramp?: boolean;
}

export interface GraphLink {
  a: string;
  b: string;
  kind: 'host-gw' | 'geneve';
}

export interface GraphModel {
  kind: ClusterKind;
  network?: string;
  subnetLen?: number;
  nodes: GraphNode[];
  links: GraphLink[];
  f5?: { vip: string; ramps: string[] };
  notes: string[];
}

export interface GraphInput {
  hosts: { name: string; vars: Record<string, unknown>; groups: string[] }[];
  snapshot?: Snapshot;
  facts?: Record<string, Record<string, unknown> | undefined>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v && !v.includes('{{') ? v : typeof v === 'number' ? String(v) : undefined);
const first = (vars: Record<string, unknown>, names: string[]) => names.map((n) => str(vars[n])).find((v) => v !== undefined);

export function buildGraph(input: GraphInput): GraphModel {
  const notes: string[] = [];
  const inGroup = (h: GraphInput['hosts'][number], g: string) => h.groups.includes(g);
  const anyVars = input.hosts[0]?.vars ?? {};
  const sdn = str(anyVars.sdn);
  const kind: ClusterKind = input.hosts.some((h) => inGroup(h, 'microshift')) || anyVars.microshift_cluster_network !== undefined ? 'microshift'
    : sdn === 'ovn' ? 'ovn' : sdn === 'flannel-hostgw' || anyVars.flannel_hostgw_subnet_len !== undefined ? 'flannel' : 'unknown';
  const network = first(anyVars, ['pod_network_cidr', 'microshift_cluster_network', 'cluster_network', 'flannel_hostgw_network']);
  const lenText = first(anyVars, ['pod_subnet_len', 'flannel_hostgw_subnet_len']);
  const subnetLen = lenText ? Number(lenText) : kind === 'ovn' ? 23 : kind === 'flannel' ? 24 : undefined;

  const nodes: GraphNode[] = input.hosts.map((h) => {
    const f = input.facts?.[h.name];
    const dv4 = (f?.ansible_default_ipv4 ?? {}) as Record<string, unknown>;
    const ifaces = (f?.ansible_interfaces as string[] | undefined) ?? [];
    const isRamp = inGroup(h, 'f5_ramp') || inGroup(h, 'ramp');
    const podNode = inGroup(h, 'nodes') || inGroup(h, 'masters') || inGroup(h, 'microshift');
    const role: GraphNode['role'] = isRamp && !podNode ? 'ramp' : kind === 'microshift' ? 'microshift' : inGroup(h, 'masters') ? 'master' : 'node';
    const mode = str(h.vars.microshift_configure_ovs_mode) ?? str(h.vars.configure_ovs_mode);
    let brEx: GraphNode['brEx'];
    if (f) brEx = ifaces.includes('br-ex') ? (dv4.interface === 'br-ex' ? 'uplink' : 'standalone') : undefined;
    else if (role === 'microshift') brEx = mode === 'uplink' ? 'uplink' : 'standalone';
    return {
      name: h.name,
      role,
      address: str(dv4.address) ?? str(h.vars.ansible_host) ?? h.name,
      uplink: str(dv4.interface) ?? first(h.vars, ['flannel_hostgw_iface', 'configure_ovs_uplink']) ?? '',
      mtu: typeof dv4.mtu === 'number' ? dv4.mtu : undefined,
      brEx,
      routes: [],
      ramp: isRamp || undefined,
    };
  });
  const pods = nodes.filter((n) => n.role !== 'ramp');
  assignSubnets(kind, network, subnetLen, pods, input.snapshot, notes);
  const links: GraphLink[] = [];
  if (kind === 'flannel' || kind === 'ovn') {
    for (let i = 0; i < pods.length; i++) for (let j = i + 1; j < pods.length; j++) links.push({ a: pods[i]!.name, b: pods[j]!.name, kind: kind === 'flannel' ? 'host-gw' : 'geneve' });
  }
  if (kind === 'flannel') {
    for (const n of pods) n.routes = pods.filter((o) => o !== n && o.podSubnet).map((o) => ({ to: o.podSubnet!, via: o.address, dev: n.uplink || 'uplink' }));
  }
  const vip = str(anyVars.f5_ramp_vip) ?? str(anyVars.f5_vip);
  const ramps = nodes.filter((n) => n.ramp).map((n) => n.name);
  if (ramps.length && !vip) notes.push('ramp nodes are listed but no f5_ramp_vip is set');
  return { kind, network, subnetLen, nodes, links, f5: vip ? { vip, ramps } : undefined, notes };
}

function assignSubnets(kind: ClusterKind, network: string | undefined, len: number | undefined, pods: GraphNode[], snap: Snapshot | undefined, notes: string[]): void {
  if (!network) return;
  if (kind === 'microshift') {
    for (const n of pods) n.podSubnet = network;
    return;
  }
  for (const n of pods) {
    const lease = snap?.leases.find((l) => l.node === n.name) ?? snap?.leases.find((l) => l.public_ip === n.address);
    if (lease) Object.assign(n, { podSubnet: lease.subnet, subnetFrom: 'store' });
  }
  const missing = pods.filter((n) => !n.podSubnet);
  if (!missing.length || len === undefined) return;
  try {
    const pool = resolvePool({ network, subnetLen: len, style: kind === 'ovn' ? 'openshift' : 'flannel' });
    const leases = (snap?.leases ?? []).map((l) => parse(l.subnet)).filter((c): c is Cidr => c !== undefined);
    const order = planOrder(pool, missing.length, leases, snap?.cursor ?? 0);
    missing.forEach((n, i) => order[i] && Object.assign(n, { podSubnet: formatCidr(order[i]!), subnetFrom: 'planned' }));
    notes.push(`${missing.length} subnet(s) not in the state store yet: shown as the allocator would give them out`);
  } catch (err) {
    notes.push(`pod subnets unknown: ${(err as Error).message}`);
  }
}

function parse(text: string): Cidr | undefined {
  try {
    return parseCidr(text);
  } catch {
    return undefined;
  }
}
