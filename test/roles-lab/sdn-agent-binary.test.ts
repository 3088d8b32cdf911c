// The sdn_agent role's "agent from a user-supplied binary" path (flanneld, ovnkube-node, openshift-sdn)
// on a real lab host. The binary is a stand-in shell script (fixtures/sdn-agent/sdn-standin.sh) that
// only shows each agent's sign of readiness: what is proven here is the role (unit, start, restart on
// change, readiness waits, failures), not the real agents.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labDown, labInventoryYaml, labUp } from '../../src/lab/index.js';
import { createTransport } from '../../src/transports/index.js';
import type { Transport } from '../../src/transports/transport.js';
import { fixture, runRole } from './sdn-agent-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const BIN = '/usr/local/bin/sdn-standin';
const dir = mkdtempSync(path.join(tmpdir(), 'hw-sdn-agent-'));
const inventory = path.join(dir, 'inventory.yml');
const playbook = fixture('agent.yml');
let host: Transport | undefined;

const sh = async (cmd: string) => {
  const r = await host!.exec(cmd);
  return { rc: r.code, out: r.stdout.trim() };
};

test.before(async () => {
  await labDown(LAB).catch(() => undefined);
  const up = await labUp({ name: LAB, hosts: 1 });
  writeFileSync(inventory, labInventoryYaml(up.state));
  const h = up.state.hosts[0];
  host = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: up.state.keyFile, knownHostsFile: up.state.knownHostsFile, netns: up.state.netns });
  await host.connect();
  const r = await host.exec(`cat > ${BIN} && chmod 0755 ${BIN}`, { stdin: readFileSync(fixture('sdn-standin.sh'), 'utf8') });
  if (r.code !== 0) throw new Error(`installing the stand-in failed: ${r.stderr}`);
});

test.after.always(async () => {
  await host?.close().catch(() => undefined);
  await labDown(LAB).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const flannel = (subnet: string) => ({ sdn: 'flannel-hostgw', flanneld_binary: BIN, flanneld_args: `file /run/flannel/subnet.env FLANNEL_SUBNET=${subnet}` });

test.serial('flanneld (sdn: flannel-hostgw + flanneld_binary): --check on a fresh host reports the unit and changes nothing', async (t) => {
  const r = await runRole(playbook, inventory, flannel('10.244.1.1/24'), true);
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.true(r.changed.some((c) => c.includes("The agent's systemd unit")), r.changed.join('\n'));
  t.is((await sh('test -e /etc/systemd/system/flanneld.service')).rc, 1, 'check mode wrote the unit');
});

test.serial('flanneld: a unit from the binary, started, ready when subnet.env appears; re-run and --check change nothing', async (t) => {
  const r = await runRole(playbook, inventory, flannel('10.244.1.1/24'));
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  const unit = (await sh('cat /etc/systemd/system/flanneld.service')).out;
  t.regex(unit, /^ExecStart=\/usr\/local\/bin\/sdn-standin file \/run\/flannel\/subnet.env FLANNEL_SUBNET=10.244.1.1\/24 *$/m);
  t.regex(unit, /^Restart=always$/m);
  t.regex(unit, /^Wants=openvswitch-switch.service$/m);
  t.is((await sh('systemctl is-active flanneld.service; systemctl is-enabled flanneld.service')).out, 'active\nenabled');
  t.regex((await sh('cat /run/flannel/subnet.env')).out, /^FLANNEL_SUBNET=10.244.1.1\/24$/m);
  const again = await runRole(playbook, inventory, flannel('10.244.1.1/24'));
  t.is(again.summary.exitCode, 0, again.failed.join('\n'));
  t.deepEqual(again.changed, []);
  const check = await runRole(playbook, inventory, flannel('10.244.1.1/24'), true);
  t.is(check.summary.exitCode, 0, check.failed.join('\n'));
  t.deepEqual(check.changed, []);
});

test.serial('flanneld: changed arguments rewrite the unit and restart the agent before readiness is judged', async (t) => {
  const before = (await sh('systemctl show -p MainPID --value flanneld.service')).out;
  const r = await runRole(playbook, inventory, flannel('10.244.2.1/24'));
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.true(r.changed.some((c) => c.endsWith(': start sdn agent')), r.changed.join('\n'));
  const after = (await sh('systemctl show -p MainPID --value flanneld.service')).out;
  t.not(after, before, 'the agent was restarted');
  t.regex((await sh('cat /run/flannel/subnet.env')).out, /^FLANNEL_SUBNET=10.244.2.1\/24$/m);
});

test.serial('ovnkube-node: ready when its CNI config file exists; ordered after ovn-controller', async (t) => {
  await sh('rm -f /etc/cni/net.d/10-ovn-kubernetes.conf');
  const vars = { sdn_agent: 'ovnkube-node', ovnkube_node_binary: BIN, ovnkube_node_args: `file /etc/cni/net.d/10-ovn-kubernetes.conf '{"cniVersion":"0.4.0","name":"ovn-kubernetes","type":"ovn-k8s-cni-overlay"}'` };
  const r = await runRole(playbook, inventory, vars);
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.regex((await sh('cat /etc/cni/net.d/10-ovn-kubernetes.conf')).out, /"name":"ovn-kubernetes"/);
  t.regex((await sh('cat /etc/systemd/system/ovnkube-node.service')).out, /^After=.*ovn-host\.service/m);
  t.deepEqual((await runRole(playbook, inventory, vars)).changed, []);
});

test.serial('openshift-sdn: ready when its unit is active and br0 exists', async (t) => {
  const vars = { sdn_agent: 'openshift-sdn', openshift_sdn_binary: BIN, openshift_sdn_args: 'bridge br0' };
  t.is((await sh('ip link show dev br0')).rc, 1, 'br0 exists before the agent ran');
  const r = await runRole(playbook, inventory, vars);
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.is((await sh('systemctl is-active openshift-sdn-node.service')).out, 'active');
  t.is((await sh('ip -j link show dev br0 | grep -c \'"ifname":"br0"\'')).out, '1');
  t.deepEqual((await runRole(playbook, inventory, vars)).changed, []);
});

test.serial('an agent that never becomes ready fails the run, naming the file it waited for', async (t) => {
  const vars = { sdn_agent: 'flanneld', flanneld_binary: BIN, flanneld_args: 'never', sdn_agent_ready_timeout: 3, sdn_agent_profile_overrides: { unit: 'standin-never', ready_path: '/run/standin-never/ready' } };
  const r = await runRole(playbook, inventory, vars);
  t.is(r.summary.exitCode, 2);
  t.true(r.failed.some((f) => f.includes('did not write /run/standin-never/ready within 3 s')), r.failed.join('\n'));
});

test.serial('without a binary the role stops before touching the host, naming the variable to set', async (t) => {
  const r = await runRole(playbook, inventory, { sdn_agent: 'ovnkube-node', ovnkube_node_binary: '' });
  t.is(r.summary.exitCode, 2);
  t.true(r.failed.some((f) => f.includes('set ovnkube_node_binary')), r.failed.join('\n'));
  const bad = await runRole(playbook, inventory, { sdn_agent: 'calico' });
  t.true(bad.failed.some((f) => f.includes("got 'calico'")), bad.failed.join('\n'));
});
