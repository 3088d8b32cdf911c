// subnet_lease: this node's subnet of the cluster network, allocated once and kept (see README.md).
// It acts through a store rather than a probe/plan pair: choosing a subnet and writing it must happen
// under one lock or in one etcd transaction, and a lost race means reading again.
import { z } from 'zod';
import { SdnInputError } from '../../sdn/errors.js';
import { resolvePool, flannelConfig, type Pool } from '../../sdn/pool.js';
import { parseIp } from '../../sdn/cidr.js';
import { DEFAULT_PREFIX, EtcdStore, EtcdUnreachableError, FileStore, defaultStateFile, type AllocateResult, type Lease, type ReleaseResult, type SubnetStore } from '../../sdn/store/index.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { unreachableResult } from './unreachable.js';
import { subnetLeaseDoc } from './doc.js';

const int = z.union([z.number().int(), z.string().regex(/^\d+$/, 'expected a whole number').transform(Number)]);
const list = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).transform((e) => (Array.isArray(e) ? e : e.split(',').map((s) => s.trim()).filter(Boolean)));

export const subnetLeaseArgs = z
  .object({
    network: z.string().min(1),
    subnet_len: int.optional(),
    subnet_min: z.string().min(1).optional(),
    subnet_max: z.string().min(1).optional(),
    style: z.enum(['flannel', 'openshift']).default('flannel'),
    pick: z.enum(['lowest', 'random']).default('lowest'),
    store: z.enum(['file', 'etcd']).default('file'),
    state_file: z.string().min(1).optional(),
    etcd_endpoints: list.default('http://127.0.0.1:2379'),
    etcd_cacert: z.string().min(1).optional(),
    etcd_cert: z.string().min(1).optional(),
    etcd_key: z.string().min(1).optional(),
    prefix: z.string().regex(/^\/\S*$/, 'expected an absolute etcd key prefix like /coreos.com/network').default(DEFAULT_PREFIX),
    public_ip: z.string().min(1).optional(),
    backend_type: z.string().min(1).default('host-gw'),
    node: z.string().min(1).optional(),
    ttl: int.default(0),
    state: z.enum(['present', 'absent']).default('present'),
    // flannel's --subnet-file (subnet.env): where --check finds this node's subnet when etcd does not answer.
    subnet_file: z.string().regex(/^\//, 'expected an absolute path like /run/flannel/subnet.env').optional(),
  })
  .strict()
  .refine((a) => (a.etcd_cert === undefined) === (a.etcd_key === undefined), { message: 'etcd_cert and etcd_key go together', path: ['etcd_cert'] });

export type SubnetLeaseArgs = z.infer<typeof subnetLeaseArgs>;

/** public_ip, else the default IPv4 fact, else ansible_host when it is an address. */
export function defaultPublicIp(a: SubnetLeaseArgs, vars: Record<string, unknown>): string | undefined {
  const candidates = [a.public_ip, (vars.ansible_default_ipv4 as { address?: string } | undefined)?.address, vars.ansible_host as string | undefined];
  for (const [i, c] of candidates.entries()) {
    if (typeof c !== 'string' || !c) continue;
    try {
      parseIp(c, 'public_ip');
      return c;
    } catch (e) {
      if (i === 0) throw e; // an explicit public_ip must be an address
    }
  }
  return undefined;
}

export function openStore(a: SubnetLeaseArgs, ctx: Pick<ModuleContext, 'transport' | 'vars' | 'become'>): SubnetStore {
  if (a.store === 'etcd') {
    return new EtcdStore(ctx.transport, { endpoints: a.etcd_endpoints, cacert: a.etcd_cacert, cert: a.etcd_cert, key: a.etcd_key }, a.prefix, ctx.become);
  }
  const dir = ctx.vars.inventory_dir;
  const path = a.state_file ?? (typeof dir === 'string' && dir ? defaultStateFile(dir) : undefined);
  if (!path) throw new SdnInputError('state_file: required with store: file when the run has no inventory_dir; expected a path on the controller');
  return new FileStore(path);
}

export function poolOf(a: SubnetLeaseArgs): Pool {
  return resolvePool({ network: a.network, subnetLen: a.subnet_len, subnetMin: a.subnet_min, subnetMax: a.subnet_max, style: a.style });
}

const show = (l: Lease) => ({ subnet: l.subnet, ...(l.public_ip ? { public_ip: l.public_ip } : {}), ...(l.backend_type ? { backend_type: l.backend_type } : {}), ...(l.node ? { node: l.node } : {}) });
const text = (ls: Lease[]) => ls.map((l) => `${l.subnet} ${l.node ?? ''} ${l.public_ip ?? ''}`.replace(/\s+/g, ' ').trim()).join('\n') + (ls.length ? '\n' : '');

function presentResult(a: SubnetLeaseArgs, pool: Pool, node: string, publicIp: string | undefined, r: AllocateResult, store: SubnetStore): ModuleResult {
  const verb = { reused: 'kept', updated: 'updated', allocated: 'allocated' }[r.action];
  const msgs = [`${verb} ${r.lease.subnet} for ${node} in ${store.describe}`];
  if (r.configCreated) msgs.unshift(`created the network config ${JSON.stringify(r.config)}`);
  for (const d of r.dropped) msgs.push(`deleted the lease ${d.subnet} that does not fit the config`);
  const before = r.leases.filter((l) => l.subnet !== r.lease.subnet).concat(r.dropped);
  return {
    changed: r.changed,
    msg: msgs.join('; '),
    subnet: r.lease.subnet,
    network: r.config.Network,
    subnet_len: pool.subnetLen,
    public_ip: publicIp ?? null,
    node,
    ...(r.lease.key ? { lease_key: r.lease.key } : {}),
    leases: r.leases.map(show),
    leases_known: true,
    config: r.config,
    ...(r.changed ? { diff: [{ header: `subnet leases (${a.store})`, before: text(before.sort((x, y) => (x.subnet < y.subnet ? -1 : 1))), after: text(r.leases) }] } : {}),
  };
}

function absentResult(a: SubnetLeaseArgs, node: string, publicIp: string | undefined, r: ReleaseResult, store: SubnetStore): ModuleResult {
  return {
    changed: r.changed,
    msg: r.changed ? `released ${r.released.map((l) => l.subnet).join(', ')} of ${node} in ${store.describe}` : `${node} has no lease in ${store.describe}`,
    subnet: r.released[0]?.subnet ?? null,
    network: r.config?.Network ?? a.network,
    public_ip: publicIp ?? null,
    node,
    leases: r.leases.map(show),
    leases_known: true,
    config: r.config ?? null,
    ...(r.changed ? { diff: [{ header: `subnet leases (${a.store})`, before: text([...r.leases, ...r.released]), after: text(r.leases) }] } : {}),
  };
}

export const subnetLeaseModule: Module<SubnetLeaseArgs> = {
  name: 'subnet_lease',
  doc: subnetLeaseDoc,
  args: subnetLeaseArgs,
  async run(a, ctx) {
    const pool = poolOf(a);
    const node = a.node ?? String(ctx.vars.inventory_hostname ?? ctx.host);
    const publicIp = defaultPublicIp(a, ctx.vars);
    const store = openStore(a, ctx);
    try {
      if (a.state === 'absent') {
        if (a.store === 'etcd' && !publicIp) throw new SdnInputError('public_ip: required to find the node lease in etcd (flannel matches leases by PublicIP); got nothing');
        return absentResult(a, node, publicIp, await store.release({ node, publicIp }, { check: ctx.check }), store);
      }
      const config = flannelConfig(pool, a.backend_type, { subnetMin: a.subnet_min !== undefined, subnetMax: a.subnet_max !== undefined });
      const r = await store.allocate({ pool, config, backendType: a.backend_type, node, publicIp, pick: a.pick, ttl: a.ttl, check: ctx.check });
      return presentResult(a, pool, node, publicIp, r, store);
    } catch (e) {
      if (!(ctx.check && e instanceof EtcdUnreachableError)) throw e;
      const why = e.message.replace(/^etcdctl \S+ failed: /, '');
      return unreachableResult({ why, state: a.state, pool, node, publicIp, subnetFile: a.subnet_file }, ctx);
    }
  },
};
