// The cluster store: etcd in flannel's schema, reached by running etcdctl on a host through a hostwire
// Transport. Installers often cannot reach etcd from the controller (it listens on the cluster's
// network or on a host's loopback), and every cluster host that runs etcd has etcdctl, so going through
// the host needs no client library and no port forwarding.
// Every write is one etcd v3 transaction: the new lease key must not exist (ver = 0), the config must be
// unchanged since it was read (or still absent when it is created), and if the compares fail the store reads
// again and decides again. So concurrent installers never hand out one subnet twice.
// Leases get no TTL by default: flannel treats a lease without TTL as a reservation and keeps it when
// flanneld reuses it, so routes that hostwire keeps itself never expire. A TTL (flannel uses 24 h) is only
// right when a flanneld renews the lease.
import { HostwireError } from '../../errors.js';
import type { BecomeOptions, Transport } from '../../transports/transport.js';
import { parseCidr } from '../cidr.js';
import { subnetKey } from '../flannel.js';
import { decideAllocation, isMine, sortLeases } from './decide.js';
import {
  type EtcdConn, type EtcdState, type TxnOp, DEFAULT_PREFIX, configKey, createIfAbsent, grantCommand, leaseKey, leaseValue, parseEtcdState,
  parseGrant, parseTxnJson, readCommand, readSection, revokeCommand, txnCommand, txnInput, unchangedSince,
} from './etcdctl.js';
import type { AllocateRequest, AllocateResult, Lease, NodeRef, ReleaseResult, Snapshot, SubnetStore } from './types.js';

/** Each failed transaction means another installer wrote first, so n racing installers need at most n tries. */
const MAX_TRIES = 64;

const strip = (l: Lease & { modRevision?: number }): Lease => {
  const { modRevision: _m, ...rest } = l;
  return rest;
};

export class EtcdStore implements SubnetStore {
  readonly describe: string;
  constructor(
    private readonly t: Transport,
    private readonly conn: EtcdConn,
    readonly prefix: string = DEFAULT_PREFIX,
    private readonly become?: BecomeOptions,
  ) {
    this.describe = `etcd ${conn.endpoints.join(',')} under ${prefix} (via ${t.name})`;
  }

  private async exec(cmd: string, what: string, stdin?: string): Promise<string> {
    const r = await this.t.exec(cmd, { become: this.become, ...(stdin !== undefined ? { stdin } : {}) });
    return readSection(r.stdout, what, this.conn, this.t.name).out;
  }

  async read(): Promise<EtcdState> {
    return parseEtcdState(await this.exec(readCommand(this.conn, this.prefix), 'get'), this.prefix);
  }

  async load(): Promise<Snapshot> {
    const st = await this.read();
    return { config: st.config?.value, leases: st.leases.map(strip), cursor: 0 };
  }

  async list(): Promise<Lease[]> {
    return sortLeases((await this.load()).leases);
  }

  private async txn(compares: string[], ops: TxnOp[]): Promise<boolean> {
    return parseTxnJson(await this.exec(txnCommand(this.conn), 'txn', txnInput(compares, ops)));
  }

  async allocate(req: AllocateRequest): Promise<AllocateResult> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const st = await this.read();
      const d = decideAllocation({ config: st.config?.value, leases: st.leases, cursor: 0 }, req, 'public_ip', this.describe);
      const mine = st.leases.find((l) => l.subnet === d.lease.subnet && isMine(l, { node: req.node, publicIp: req.publicIp }, 'public_ip'));
      const key = mine?.key ?? leaseKey(this.prefix, subnetKey(parseCidr(d.lease.subnet)));
      const lease: Lease = { ...strip(d.lease), key, ...(mine?.etcd_lease ? { etcd_lease: mine.etcd_lease } : {}) };
      const dropped = d.drop.map(strip);
      const leases = sortLeases([...st.leases.filter((l) => l !== mine && !d.drop.includes(l)).map(strip), lease]);
      const result = (changed: boolean): AllocateResult => ({ changed, action: d.action, lease, leases, config: d.config, configCreated: d.configCreate, dropped });
      if (d.action === 'reused' && !d.configCreate && d.drop.length === 0) return result(false);
      if (req.check) return result(true);

      const compares: string[] = [];
      const ops: TxnOp[] = [];
      const cfg = configKey(this.prefix);
      if (d.configCreate) {
        compares.push(createIfAbsent(cfg));
        ops.push({ put: { key: cfg, value: JSON.stringify(d.config) } });
      } else compares.push(unchangedSince(cfg, st.config!.modRevision));
      for (const l of d.drop as (Lease & { modRevision: number })[]) {
        compares.push(unchangedSince(l.key!, l.modRevision));
        ops.push({ del: l.key! });
      }
      let granted: string | undefined;
      const value = leaseValue(req.publicIp, req.backendType);
      if (d.action === 'allocated') {
        if (req.ttl && req.ttl > 0) granted = parseGrant(await this.exec(grantCommand(this.conn, req.ttl), 'lease grant'));
        compares.push(createIfAbsent(key));
        ops.push({ put: { key, value, ...(granted ? { lease: granted } : {}) } });
        if (granted) lease.etcd_lease = granted;
      } else if (d.action === 'updated') {
        compares.push(unchangedSince(key, mine!.modRevision));
        ops.push({ put: { key, value, ignoreLease: true } });
      }
      if (await this.txn(compares, ops)) return result(true);
      // Someone wrote first: free the unused TTL lease (as flannel's createSubnet does) and decide again.
      if (granted) await this.exec(revokeCommand(this.conn, granted), 'lease revoke').catch(() => undefined);
    }
    throw new HostwireError('command-failed', `gave up allocating a subnet in ${this.describe} after ${MAX_TRIES} tries: other writers changed the leases every time`);
  }

  async release(ref: NodeRef, o: { check?: boolean } = {}): Promise<ReleaseResult> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const st = await this.read();
      const released = st.leases.filter((l) => isMine(l, ref, 'public_ip'));
      const leases = sortLeases(st.leases.filter((l) => !released.includes(l)).map(strip));
      const result = (changed: boolean): ReleaseResult => ({ changed, released: released.map(strip), leases, config: st.config?.value });
      if (released.length === 0) return result(false);
      if (o.check) return result(true);
      if (await this.txn(released.map((l) => unchangedSince(l.key!, l.modRevision)), released.map((l) => ({ del: l.key! })))) return result(true);
    }
    throw new HostwireError('command-failed', `gave up releasing the lease of ${ref.publicIp ?? ref.node} in ${this.describe} after ${MAX_TRIES} tries`);
  }
}
