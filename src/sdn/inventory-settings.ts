// The inventory variables `hostwire subnets -i` reads. Pure: a host's variables in, settings out.
// The flannel_hostgw role's own names are accepted as fallbacks, so an inventory written for that role
// shows the same plan.
import { SdnInputError } from './errors.js';
import { parseIp } from './cidr.js';
import type { Style } from './pool.js';

export interface SubnetSettings {
  network: string;
  subnetLen?: number;
  subnetMin?: string;
  subnetMax?: string;
  style: Style;
  store: 'file' | 'etcd';
  stateFile?: string;
  etcdEndpoints: string[];
  etcdCacert?: string;
  etcdCert?: string;
  etcdKey?: string;
  prefix: string;
  /** The host that runs etcdctl (default: the first host of group `etcd`, else the first node). */
  etcdHost?: string;
  backendType: string;
}

/** Variable name -> fallbacks, first found wins. Documented in src/modules/subnet_lease/README.md. */
export const VARS = {
  network: ['pod_network_cidr', 'flannel_hostgw_network', 'cluster_network'],
  subnetLen: ['pod_subnet_len', 'flannel_hostgw_subnet_len'],
  subnetMin: ['pod_subnet_min'],
  subnetMax: ['pod_subnet_max'],
  style: ['pod_subnet_style'],
  store: ['subnet_store'],
  stateFile: ['subnet_state_file'],
  etcdEndpoints: ['etcd_endpoints'],
  etcdCacert: ['etcd_cacert'],
  etcdCert: ['etcd_cert'],
  etcdKey: ['etcd_key'],
  prefix: ['etcd_prefix', 'flannel_hostgw_etcd_prefix'],
  etcdHost: ['subnet_etcd_host'],
  backendType: ['pod_backend_type'],
  publicIp: ['subnet_public_ip', 'flannel_hostgw_public_ip'],
} as const;

type Get = (name: string) => unknown;

function first(get: Get, names: readonly string[]): { name: string; value: unknown } | undefined {
  for (const name of names) {
    let v: unknown;
    try {
      v = get(name);
    } catch {
      continue; // a template that needs facts: not usable before a run
    }
    if (v !== undefined && v !== null && v !== '') return { name, value: v };
  }
  return undefined;
}

const str = (get: Get, names: readonly string[]): string | undefined => {
  const f = first(get, names);
  return f === undefined ? undefined : String(f.value).trim();
};

export function readSettings(get: Get, host: string): SubnetSettings {
  const network = str(get, VARS.network);
  if (!network) throw new SdnInputError(`host ${host}: no pod network; set ${VARS.network[0]} (a CIDR like 10.244.0.0/16) in the inventory, or pass --network`);
  const len = first(get, VARS.subnetLen);
  let subnetLen: number | undefined;
  if (len) {
    subnetLen = Number(len.value);
    if (!Number.isInteger(subnetLen)) throw new SdnInputError(`host ${host}: ${len.name} must be a prefix length like 24, got '${String(len.value)}'`);
  }
  const style = (str(get, VARS.style) ?? 'flannel') as Style;
  if (style !== 'flannel' && style !== 'openshift') throw new SdnInputError(`host ${host}: ${VARS.style[0]} must be flannel or openshift, got '${style}'`);
  // site.yml's flannel host-gw keeps its leases in etcd (flannel's own store): show those by default.
  const store = (str(get, VARS.store) ?? (str(get, ['sdn']) === 'flannel-hostgw' ? 'etcd' : 'file')) as 'file' | 'etcd';
  if (store !== 'file' && store !== 'etcd') throw new SdnInputError(`host ${host}: ${VARS.store[0]} must be file or etcd, got '${store}'`);
  const ep = first(get, VARS.etcdEndpoints)?.value;
  const etcdEndpoints = (Array.isArray(ep) ? ep.map(String) : String(ep ?? 'http://127.0.0.1:2379').split(',')).map((s) => s.trim()).filter(Boolean);
  return {
    network, subnetLen, style, store, etcdEndpoints,
    subnetMin: str(get, VARS.subnetMin), subnetMax: str(get, VARS.subnetMax), stateFile: str(get, VARS.stateFile),
    etcdCacert: str(get, VARS.etcdCacert), etcdCert: str(get, VARS.etcdCert), etcdKey: str(get, VARS.etcdKey),
    prefix: str(get, VARS.prefix) ?? '/coreos.com/network', etcdHost: str(get, VARS.etcdHost), backendType: str(get, VARS.backendType) ?? 'host-gw',
  };
}

/** The node's PublicIP: subnet_public_ip (or the flannel role's), else ansible_host when it is an address. */
export function readPublicIp(get: Get): string | undefined {
  for (const names of [VARS.publicIp, ['ansible_host'] as const]) {
    const v = str(get, names);
    if (!v) continue;
    try {
      parseIp(v);
      return v;
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Settings that must agree across every node (they describe one cluster). */
export function sameCluster(a: SubnetSettings, b: SubnetSettings): keyof SubnetSettings | undefined {
  for (const k of ['network', 'subnetLen', 'style', 'store', 'prefix'] as const) {
    if (String(a[k]) !== String(b[k])) return k;
  }
  return undefined;
}
