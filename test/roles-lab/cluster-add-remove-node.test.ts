// playbooks/add-node.yml and remove-node.yml on a running flannel host-gw cluster (lab tcluster2,
// 3 hosts): site.yml brings up nodes 1-2; add-node adds node 3 and changes nothing on 1-2 but their
// routes; with node 3 gone from the inventory its lease is reported stale and kept; remove-node
// (with its IP, as it is no longer in the inventory) releases the lease and drops the routes.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { labDown, labInventory, labUp, type LabState } from '../../src/lab/index.js';
import { createTransport } from '../../src/transports/index.js';
import type { Transport } from '../../src/transports/transport.js';
import { repoRoot, runRole } from './sdn-agent-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-cluster-nodes-'));
const playbook = (name: string) => path.join(repoRoot, 'playbooks', `${name}.yml`);
let state: LabState;
const hosts: Transport[] = [];
const names: string[] = [];
const ips: string[] = [];

/** An inventory with the given lab hosts as nodes (the first one also masters and etcd). */
function inventory(file: string, count: number): string {
  const all = (labInventory(state) as { all: { hosts: Record<string, unknown> } }).all.hosts;
  const members = Object.fromEntries(names.slice(0, count).map((n) => [n, {}]));
  const doc = {
    all: {
      hosts: Object.fromEntries(names.slice(0, count).map((n) => [n, all[n]])),
      children: {
        etcd: { hosts: { [names[0]]: {} } },
        masters: { hosts: { [names[0]]: {} } },
        nodes: { hosts: members, vars: { sdn: 'flannel-hostgw', cluster_network: '10.244.0.0/16' } },
      },
    },
  };
  const p = path.join(dir, file);
  writeFileSync(p, stringify(doc, { lineWidth: 0 }));
  return p;
}

const sh = async (i: number, cmd: string) => (await hosts[i].exec(cmd)).stdout.trim();
const peerRoutes = (i: number) => sh(i, "ip -4 route show root 10.244.0.0/16 | grep ' via ' | awk '{print $1\" via \"$3}' | LC_ALL=C sort");
const leases = () => sh(0, 'etcdctl get --prefix --print-value-only /coreos.com/network/subnets/');

test.before(async () => {
  await labDown(LAB).catch(() => undefined);
  const up = await labUp({ name: LAB, hosts: 3 });
  state = up.state;
  for (const h of state.hosts) {
    names.push(h.name);
    ips.push(h.ip);
    const t = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: state.keyFile, knownHostsFile: state.knownHostsFile, netns: state.netns });
    await t.connect();
    hosts.push(t);
  }
});

test.after.always(async () => {
  await Promise.all(hosts.map((h) => h.close().catch(() => undefined)));
  await labDown(LAB).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

test.serial('site.yml on two nodes: each routes to the other', async (t) => {
  const r = await runRole(playbook('site'), inventory('two.yml', 2), {});
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.regex(await peerRoutes(0), new RegExp(`via ${ips[1].replace(/\./g, '\\.')}$`));
  t.regex(await peerRoutes(1), new RegExp(`via ${ips[0].replace(/\./g, '\\.')}$`));
});

test.serial('add-node.yml: node 3 gets the whole bring-up, nodes 1-2 change only their routes (and their boot-time copy)', async (t) => {
  const r = await runRole(playbook('add-node'), inventory('three.yml', 3), { new_nodes: names[2] });
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  for (const i of [0, 1]) {
    const mine = r.changed.filter((c) => c.startsWith(`${names[i]}: `));
    // Their routes, and the boot-time script that re-applies those routes.
    t.deepEqual(mine, [
      `${names[i]}: Exactly one route per peer lease (via its PublicIP), none for gone leases`,
      `${names[i]}: Boot-time script with the peers' routes and the forwarding/NAT rules`,
    ], `node ${i + 1} changed: ${mine.join('; ')}`);
    t.true((await peerRoutes(i)).includes(`via ${ips[2]}`));
  }
  const third = r.changed.filter((c) => c.startsWith(`${names[2]}: `));
  t.true(third.length >= 10, third.join('\n'));
  t.is((await peerRoutes(2)).split('\n').length, 2);
  // A second run changes nothing anywhere.
  const again = await runRole(playbook('add-node'), inventory('three.yml', 3), { new_nodes: names[2] });
  t.deepEqual(again.changed, []);
});

test.serial('node 3 gone from the inventory: its lease is reported stale and kept', async (t) => {
  const r = await runRole(playbook('site'), inventory('two.yml', 2), {});
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.deepEqual(r.changed, []);
  const report = r.events.flatMap((e) => (e.type === 'host_result' && e.task.name === 'Report stale leases' ? [String(e.result.msg ?? JSON.stringify(e.result.result ?? {}))] : []));
  t.is(report.length, 1);
  t.true(report[0].includes(ips[2]), report[0]);
  t.true((await leases()).includes(`"PublicIP":"${ips[2]}"`));
});

test.serial('remove-node.yml by IP: the lease is released and nodes 1-2 drop the route', async (t) => {
  const r = await runRole(playbook('remove-node'), inventory('two.yml', 2), { remove_node: names[2], remove_node_ip: ips[2] });
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.false((await leases()).includes(ips[2]));
  for (const i of [0, 1]) {
    const routes = await peerRoutes(i);
    t.false(routes.includes(ips[2]), routes);
    t.is(routes.split('\n').length, 1);
  }
  const changedHosts = new Set(r.changed.map((c) => c.split(':')[0]));
  t.deepEqual([...changedHosts].sort(), [names[0], names[1]].sort());
});
