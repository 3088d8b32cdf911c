// Where allocations live. Two stores share one shape: a JSON state file beside the inventory
// (file-store.ts) and etcd in flannel's schema (etcd-store.ts). The decision (reuse, allocate,
// refuse) is the same pure function for both (decide.ts).
import type { FlannelConfigJson, Pool } from '../pool.js';
import type { Pick } from '../flannel.js';

/** One lease as hostwire reports it. */
export interface Lease {
  /** CIDR text, e.g. 10.1.15.0/24. */
  subnet: string;
  public_ip?: string;
  backend_type?: string;
  /** The node's name (file store only: flannel's etcd schema has no node name). */
  node?: string;
  /** etcd key of the lease (etcd store only). */
  key?: string;
  /** etcd lease id (hex) when the key expires, absent when it does not. */
  etcd_lease?: string;
}

export interface Snapshot {
  /** The stored network config, absent when none is stored yet. */
  config?: FlannelConfigJson;
  /** The allocation style stored with the config (file store), absent in etcd. */
  style?: string;
  leases: Lease[];
  /** OpenShift's round-robin cursor (file store); 0 when the store keeps none. */
  cursor: number;
}

export interface AllocateRequest {
  pool: Pool;
  /** The flannel config to create when none is stored. */
  config: FlannelConfigJson;
  backendType: string;
  node: string;
  publicIp?: string;
  pick?: Pick;
  rand?: () => number;
  /** etcd TTL in seconds, 0 for none. */
  ttl?: number;
  /** Report what would happen without writing. */
  check?: boolean;
}

export interface AllocateResult {
  changed: boolean;
  /** What happened: the lease was reused as is, its attributes were updated, or a new one was made. */
  action: 'reused' | 'updated' | 'allocated';
  lease: Lease;
  /** Every lease after the change, sorted by subnet. */
  leases: Lease[];
  config: FlannelConfigJson;
  configCreated: boolean;
  /** Incompatible leases of this node that were deleted (flannel does the same). */
  dropped: Lease[];
}

export interface ReleaseResult {
  changed: boolean;
  released: Lease[];
  leases: Lease[];
  config?: FlannelConfigJson;
}

/** How a node's lease is found: by node name (file) or by PublicIP (etcd, as flanneld does). */
export interface NodeRef {
  node: string;
  publicIp?: string;
}

export interface SubnetStore {
  /** For messages: "state file /x/.hostwire/subnets.json", "etcd http://... (via node1)". */
  readonly describe: string;
  load(): Promise<Snapshot>;
  allocate(req: AllocateRequest): Promise<AllocateResult>;
  release(ref: NodeRef, o?: { check?: boolean }): Promise<ReleaseResult>;
  list(): Promise<Lease[]>;
}
