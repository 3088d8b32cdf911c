// subnet_lease under --check when etcd does not answer (stopped as drift, or a fresh cluster whose etcd
// a real run would start first). A real run fails; check mode must report what it can and go on, and
// never write. This node's own subnet is then the one flannel itself falls back to: FLANNEL_SUBNET in
// its subnet file (flanneld reads it at start to take the same lease again). The other leases are unknown.
import { containsCidr, formatCidr, hostMask, parseIp, type Cidr } from '../../sdn/cidr.js';
import type { Pool } from '../../sdn/pool.js';
import { shellQuote } from '../../transports/quote.js';
import type { ModuleContext, ModuleResult } from '../types.js';
import type { Probe } from '../../probe/types.js';

export interface OwnSubnet {
  subnet?: string;
  /** Why the file gave no subnet (missing, no FLANNEL_SUBNET, outside the network). */
  why?: string;
}

/** The node's subnet from subnet.env text: FLANNEL_SUBNET=10.244.3.1/24 is 10.244.3.0/24, if it fits the pool. */
export function parseSubnetEnv(text: string | undefined, file: string, pool: Pool): OwnSubnet {
  if (text === undefined) return { why: `${file} does not exist` };
  const m = /^FLANNEL_SUBNET=([0-9a-fA-F.:]+)\/(\d{1,3})\s*$/m.exec(text);
  if (!m) return { why: `${file} has no FLANNEL_SUBNET=address/prefix line` };
  let cidr: Cidr;
  try {
    const ip = parseIp(m[1], 'FLANNEL_SUBNET');
    cidr = { family: ip.family, base: ip.value & ~hostMask(ip.family, Number(m[2])), prefix: Number(m[2]) };
  } catch {
    return { why: `${file}: FLANNEL_SUBNET is not an address/prefix` };
  }
  if (cidr.prefix !== pool.subnetLen || !containsCidr(pool.network, cidr)) {
    return { why: `${file}: FLANNEL_SUBNET ${m[1]}/${m[2]} is not a /${pool.subnetLen} of ${formatCidr(pool.network)}` };
  }
  return { subnet: formatCidr(cidr) };
}

/** Reads the file's text (no output marker: absent). Read-only, batched like any probe. */
export function subnetFileProbe(file: string): Probe<string | undefined> {
  return {
    command: `if [ -f ${shellQuote(file)} ]; then echo '::present'; cat -- ${shellQuote(file)}; fi`,
    parse: (o) => (o.stdout.startsWith('::present\n') ? o.stdout.slice('::present\n'.length) : undefined),
  };
}

export interface UnreachableInput {
  why: string;
  state: 'present' | 'absent';
  pool: Pool;
  node: string;
  publicIp?: string;
  subnetFile?: string;
}

/** The check-mode result: changed (etcd down is drift), leases_known false so callers skip what needs the peers. */
export async function unreachableResult(i: UnreachableInput, ctx: Pick<ModuleContext, 'probe'>): Promise<ModuleResult> {
  const base = { changed: true, network: formatCidr(i.pool.network), subnet_len: i.pool.subnetLen, public_ip: i.publicIp ?? null, node: i.node, leases: [], leases_known: false };
  const unknown = '(unknown: etcd is not reachable)\n';
  if (i.state === 'absent') {
    return { ...base, subnet: null, msg: `${i.why} (check mode): whether ${i.node} holds a lease cannot be read; it is released once etcd answers`, diff: [{ header: 'subnet leases (etcd)', before: unknown, after: `(no lease for ${i.node})\n` }] };
  }
  const own = i.subnetFile ? parseSubnetEnv(await ctx.probe(subnetFileProbe(i.subnetFile)), i.subnetFile, i.pool) : { why: 'no subnet_file was given' };
  const mine = own.subnet
    ? `this node's subnet is ${own.subnet} (from ${i.subnetFile})`
    : `this node's subnet is not known (${own.why}); tasks that need it are skipped`;
  return {
    ...base,
    subnet: own.subnet ?? null,
    msg: `${i.why} (check mode): the leases cannot be read; ${mine}`,
    diff: [{ header: 'subnet leases (etcd)', before: unknown, after: own.subnet ? `${own.subnet} ${i.publicIp ?? i.node}\n` : '(a lease for this node once etcd answers)\n' }],
  };
}
