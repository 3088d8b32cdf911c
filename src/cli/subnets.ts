// `hostwire subnets`: the subnet allocation plan, before anything is applied.
//   --network CIDR --hostsubnetlength N --count K   the order in which subnets are given out
//   -i INV                                          which node has or would get which subnet (+ stale leases)
import type { Command } from 'commander';
import { connectionSettings, hostVars, loadInventory, selectHosts } from '../engine/inventory/index.js';
import { BadInputError } from '../errors.js';
import { mergeVars, templatedVars } from '../engine/vars/index.js';
import { createTransport } from '../transports/index.js';
import type { Transport } from '../transports/transport.js';
import { formatCidr, formatIp } from '../sdn/cidr.js';
import { hostBitsOf, planOrder, poolSize, resolvePool, type Pool, type Style } from '../sdn/pool.js';
import { planNodes, type Plan } from '../sdn/plan.js';
import { readPublicIp, readSettings, sameCluster, type SubnetSettings } from '../sdn/inventory-settings.js';
import { EtcdStore, FileStore, defaultStateFile, type SubnetStore } from '../sdn/store/index.js';
import { collect, count } from './options.js';
import { reportError } from './errors.js';

interface Flags {
  inventory: string[];
  hosts: string;
  network?: string;
  hostsubnetlength?: string;
  subnetLen?: string;
  subnetMin?: string;
  subnetMax?: string;
  count: string;
  style?: string;
  json?: boolean;
  hostKeyChecking?: 'strict' | 'accept-new' | 'off';
  verbose: number;
}

const int = (v: string | undefined, flag: string): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new BadInputError(`${flag}: expected a whole number, got '${v}'`);
  return Number(v);
};

export function describePool(p: Pool): string {
  const range = p.style === 'flannel' ? `, subnets ${formatIp(p.network.family, p.subnetMin)} .. ${formatIp(p.network.family, p.subnetMax)}` : '';
  return `network ${formatCidr(p.network)}, /${p.subnetLen} per node (hostsubnetlength ${hostBitsOf(p)}), style ${p.style}${range}: ${poolSize(p)} subnets`;
}

function orderCommand(f: Flags): string {
  if (f.hostsubnetlength !== undefined && f.subnetLen !== undefined) throw new BadInputError('--hostsubnetlength and --subnet-len say the same thing: give one');
  const style = (f.style ?? 'flannel') as Style;
  const hostBits = int(f.hostsubnetlength, '--hostsubnetlength');
  const bits = f.network?.includes(':') ? 128 : 32;
  const pool = resolvePool(
    { network: f.network!, subnetLen: hostBits !== undefined ? bits - hostBits : int(f.subnetLen, '--subnet-len'), subnetMin: f.subnetMin, subnetMax: f.subnetMax, style },
    { network: '--network', subnetLen: hostBits !== undefined ? '--hostsubnetlength' : '--subnet-len', subnetMin: '--subnet-min', subnetMax: '--subnet-max', style: '--style' },
  );
  const n = int(f.count, '--count') ?? 0;
  const order = planOrder(pool, n).map(formatCidr);
  if (f.json) return JSON.stringify({ network: formatCidr(pool.network), subnet_len: pool.subnetLen, hostsubnetlength: hostBitsOf(pool), style: pool.style, total: Number(poolSize(pool)), order }, null, 2);
  const w = String(order.length).length;
  return [describePool(pool), ...order.map((s, i) => `${String(i + 1).padStart(w)}  ${s}`), ...(order.length < n ? [`(only ${order.length} subnets exist)`] : [])].join('\n');
}

function renderPlan(pool: Pool, store: SubnetStore, plan: Plan): string {
  const rows = [...plan.rows.map((r) => [r.node, r.public_ip ?? '-', r.subnet ?? '-', r.status + (r.replaces ? ` (replaces ${r.replaces}, which does not fit)` : '')]),
    ...plan.stale.map((l) => [l.node ?? '-', l.public_ip ?? '-', l.subnet, `stale (${l.node ? 'no such host in the inventory' : 'no inventory host has this PublicIP'})`]),
    ...plan.duplicates.map((l) => [l.of, l.public_ip ?? '-', l.subnet, `duplicate (${l.of} has another lease; release one by hand)`])];
  const head = ['NODE', 'PUBLIC IP', 'SUBNET', 'STATUS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [describePool(pool), `store: ${store.describe}${plan.configMissing ? ' (no config stored yet: the first run creates it)' : ''}`, line(head), ...rows.map(line)].join('\n');
}

async function planCommand(f: Flags): Promise<string> {
  const inv = await loadInventory(f.inventory);
  const names = selectHosts(inv, f.hosts);
  if (!names.length) throw new BadInputError(`no hosts matched the pattern '${f.hosts}'`);
  const view = (h: string) => templatedVars(mergeVars(hostVars(inv, h)));
  const per = names.map((h) => ({ host: h, vars: view(h) }));
  const get = (v: Record<string, unknown>) => (k: string) => v[k];
  const settings = per.map((p) => readSettings(get(p.vars), p.host));
  const s: SubnetSettings = f.network ? { ...settings[0], network: f.network } : settings[0];
  for (const [i, o] of settings.entries()) {
    const k = sameCluster(settings[0], o);
    if (k && !f.network) throw new BadInputError(`hosts ${names[0]} and ${names[i]} disagree on ${k} (${String(settings[0][k])} vs ${String(o[k])}); one plan covers one cluster: pick the nodes with --hosts`);
  }
  const pool = resolvePool({ network: s.network, subnetLen: s.subnetLen, subnetMin: s.subnetMin, subnetMax: s.subnetMax, style: s.style });
  const nodes = per.map((p) => ({ node: p.host, publicIp: readPublicIp(get(p.vars)) }));
  let transport: Transport | undefined;
  try {
    let store: SubnetStore;
    if (s.store === 'etcd') {
      const etcdHost = s.etcdHost ?? (inv.groups.has('etcd') ? selectHosts(inv, 'etcd')[0] : undefined) ?? names[0];
      const vars = view(etcdHost);
      const cs = connectionSettings(vars);
      const netns = vars.hostwire_netns;
      transport = createTransport(etcdHost, { ...cs, netns: typeof netns === 'string' ? netns : undefined }, { hostKeyChecking: f.hostKeyChecking });
      await transport.connect();
      store = new EtcdStore(transport, { endpoints: s.etcdEndpoints, cacert: s.etcdCacert, cert: s.etcdCert, key: s.etcdKey }, s.prefix);
    } else {
      const dir = per[0].vars.inventory_dir;
      const path = s.stateFile ?? (typeof dir === 'string' && dir ? defaultStateFile(dir) : undefined);
      if (!path) throw new BadInputError('no state file: set subnet_state_file, or give an inventory file (its directory holds .hostwire/subnets.json)');
      store = new FileStore(path);
    }
    const snap = await store.load();
    const plan = planNodes(pool, snap, nodes, s.store === 'etcd' ? 'public_ip' : 'node', s.backendType, store.describe);
    if (f.json) return JSON.stringify({ network: formatCidr(pool.network), subnet_len: pool.subnetLen, style: pool.style, store: store.describe, config_stored: !plan.configMissing, nodes: plan.rows, stale: plan.stale, duplicates: plan.duplicates }, null, 2);
    return renderPlan(pool, store, plan);
  } finally {
    await transport?.close().catch(() => undefined);
  }
}

export function registerSubnetsCommand(program: Command): void {
  program
    .command('subnets')
    .description('show the pod subnet plan: the allocation order, or which node has or would get which subnet')
    .option('-i, --inventory <path>', 'inventory file or directory (repeatable): show each node\'s subnet', collect, [])
    .option('--hosts <pattern>', 'with -i: the nodes that get subnets', 'all')
    .option('--network <cidr>', 'cluster network, e.g. 10.128.0.0/14 (with -i: overrides the inventory)')
    .option('--hostsubnetlength <n>', 'host bits per node subnet (OpenShift: 9 means /23)')
    .option('--subnet-len <n>', 'prefix length per node subnet (flannel SubnetLen), instead of --hostsubnetlength')
    .option('--subnet-min <ip>', 'flannel SubnetMin')
    .option('--subnet-max <ip>', 'flannel SubnetMax')
    .option('--count <k>', 'how many subnets to list', '10')
    .option('--style <style>', 'flannel (default) or openshift')
    .option('--json', 'JSON output')
    .option('--host-key-checking <policy>', 'strict (default), accept-new or off (etcd store: ssh to the etcd host)')
    .option('-v, --verbose', 'more output', count, 0)
    .addHelpText('after', [
      '', 'Examples:',
      '  hostwire subnets --network 10.128.0.0/14 --hostsubnetlength 9 --count 5 --style openshift',
      '  hostwire subnets -i inventory/cluster.yml --hosts nodes',
      '', 'Inventory variables (first found wins): pod_network_cidr (or flannel_hostgw_network, cluster_network), pod_subnet_len,',
      'pod_subnet_min, pod_subnet_max, pod_subnet_style, subnet_store (file|etcd), subnet_state_file, etcd_endpoints, etcd_prefix,',
      'subnet_etcd_host, subnet_public_ip (else ansible_host). See src/modules/subnet_lease/README.md.',
    ].join('\n'))
    .action(async (f: Flags) => {
      try {
        if (f.inventory.length === 0 && !f.network) throw new BadInputError('give --network CIDR (the allocation order) or -i INVENTORY (each node\'s subnet)');
        const out = f.inventory.length ? await planCommand(f) : orderCommand(f);
        process.stdout.write(`${out}\n`);
      } catch (err) {
        process.exitCode = reportError(err, f.verbose);
      }
    });
}
