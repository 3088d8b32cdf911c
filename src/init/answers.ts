// What `hostwire init` asks, its defaults per cluster type, and validation of every answer
// (the same checks for a flag, a prompt and a test). Pure.
import { BadInputError } from '../errors.js';
import { parseCidr, parseIp } from '../sdn/cidr.js';

export type ClusterType = 'microshift' | 'flannel' | 'ovn';
export const CLUSTER_TYPES: { value: ClusterType; name: string; description: string }[] = [
  { value: 'microshift', name: 'MicroShift single node', description: 'one host: br-ex, firewalld, ip_forward, MicroShift ovn.yaml' },
  { value: 'flannel', name: 'flannel host-gw cluster', description: 'nodes on one L2 segment, routes between them, subnet leases in etcd' },
  { value: 'ovn', name: 'OVN cluster', description: 'geneve tunnels between nodes, ovn-central on the first master' },
];

export interface HostAnswer {
  name: string;
  address: string;
}

export interface InitAnswers {
  type: ClusterType;
  hosts: HostAnswer[];
  user: string;
  key?: string;
  network: string;
  subnetLen: number;
  /** undefined: the roles' default (taken from the uplink at run time). */
  mtu?: number;
  firewallSources: string[];
  /** MicroShift: move the uplink NIC into br-ex (disruptive) instead of a NIC-less br-ex. */
  uplink: boolean;
  ramp?: { hosts: HostAnswer[]; vip: string; f5Ip?: string };
}

export function defaultsFor(type: ClusterType): Pick<InitAnswers, 'user' | 'network' | 'subnetLen' | 'firewallSources' | 'uplink'> {
  return {
    user: 'root',
    network: type === 'microshift' ? '10.42.0.0/16' : '10.244.0.0/16',
    subnetLen: type === 'ovn' ? 23 : 24,
    firewallSources: type === 'microshift' ? ['169.254.169.1'] : [],
    uplink: false,
  };
}

export function parseType(v: string): ClusterType {
  const t = v.trim().toLowerCase();
  const alias: Record<string, ClusterType> = { microshift: 'microshift', flannel: 'flannel', 'flannel-hostgw': 'flannel', 'host-gw': 'flannel', ovn: 'ovn' };
  const found = alias[t];
  if (!found) throw new BadInputError(`--type: expected microshift, flannel or ovn, got '${v}'`);
  return found;
}

const HOSTNAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

/** `10.0.0.5`, `node1=10.0.0.5` or `node1.example.com`, comma or space separated. */
export function parseHosts(values: string[], prefix = 'node', what = '--host'): HostAnswer[] {
  const items = values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
  const out = items.map((item, i): HostAnswer => {
    const [a, b] = item.includes('=') ? item.split('=', 2) as [string, string] : [undefined, item];
    const name = a ?? (isIp(b) ? `${prefix}${i + 1}` : b.split('.')[0]!);
    if (!HOSTNAME.test(name)) throw new BadInputError(`${what}: '${name}' is not a valid host name`);
    if (!isIp(b) && !HOSTNAME.test(b)) throw new BadInputError(`${what}: '${b}' is neither an IP address nor a host name`);
    return { name, address: b };
  });
  const dup = out.find((h, i) => out.findIndex((o) => o.name === h.name) !== i);
  if (dup) throw new BadInputError(`${what}: the host name '${dup.name}' is given twice`);
  return out;
}

function isIp(s: string): boolean {
  try {
    parseIp(s);
    return true;
  } catch {
    return false;
  }
}

export function checkNetwork(v: string): string {
  const c = parseCidr(v.trim(), '--network');
  if (c.family !== 4) throw new BadInputError('--network: an IPv4 cluster network is expected (like 10.244.0.0/16)');
  return v.trim();
}

export function checkMtu(v: string | number | undefined): number | undefined {
  if (v === undefined || v === '' || v === 'auto') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1280 || n > 9216) throw new BadInputError(`--mtu: expected a number between 1280 and 9216 (or 'auto'), got '${v}'`);
  return n;
}

export function checkSources(values: string[]): string[] {
  return values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean).map((s) => {
    parseCidr(s.includes('/') ? s : `${s}/32`, '--firewall-source');
    return s;
  });
}

export function checkSubnetLen(v: string | number, network: string): number {
  const n = Number(v);
  const prefix = parseCidr(network).prefix;
  if (!Number.isInteger(n) || n < prefix + 1 || n > 30) throw new BadInputError(`--subnet-len: expected a prefix length between ${prefix + 1} and 30 for ${network}, got '${v}'`);
  return n;
}

export function checkVip(v: string): string {
  if (!isIp(v.trim())) throw new BadInputError(`--vip: expected an IP address, got '${v}'`);
  return v.trim();
}
