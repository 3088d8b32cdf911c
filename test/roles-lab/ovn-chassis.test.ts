// The sdn_agent role's OVN path on one real lab host that is both the central (group masters) and a
// chassis: honest --check on a fresh host, converge to a registered chassis, no-op re-run, drift of
// one OVN setting caught by --check and fixed, a stable chassis name across an Open vSwitch restart,
// and the vxlan encapsulation option. (The 3-host overlay with pod pings is molecule/cluster-ovn.)
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { labInventory } from '../../src/lab/index.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { fixture, runRole } from './sdn-agent-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-ovn-'));
const inventory = path.join(dir, 'inventory.yml');
const playbook = fixture('agent.yml');
const vars = { sdn: 'ovn', sdn_agent_ovn_bridge_datapath_type: 'netdev' };
let lab: LabHost | undefined;
let name = '';
let ip = '';

const sh = async (cmd: string) => (await lab!.transport.exec(cmd)).stdout.trim();
/** The chassis' encapsulations as the southbound DB lists them: `type ip` lines. */
const encaps = () => sh(`ovn-sbctl --timeout=5 --format=csv --data=bare --no-headings --columns=type,ip find Encap chassis_name=${name}`);

test.before(async () => {
  lab = await labHost(LAB);
  const inv = labInventory(lab.state) as { all: { children: Record<string, unknown> } };
  name = lab.state.hosts[0].name;
  ip = lab.state.hosts[0].ip;
  inv.all.children.masters = { hosts: { [name]: {} } };
  writeFileSync(inventory, stringify(inv, { lineWidth: 0 }));
});

test.after.always(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

test.serial('--check on a fresh host reports what it would start and set, and changes nothing', async (t) => {
  const r = await runRole(playbook, inventory, vars, true);
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  for (const task of ['OVN central is running', 'OVN settings in the local OVS database (external_ids)', 'OVN controller is running']) {
    t.true(r.changed.includes(`${name}: ${task}`), `${task} not reported: ${r.changed.join(', ')}`);
  }
  t.is(await sh('systemctl is-active ovn-central ovn-host'), 'inactive\ninactive');
  t.is(await sh('ovs-vsctl get Open_vSwitch . external_ids:ovn-remote 2>&1'), 'ovs-vsctl: no key "ovn-remote" in Open_vSwitch record "." column external_ids');
});

test.serial('converge: central listening on 6641/6642, the chassis registered with its geneve endpoint; re-run changes nothing', async (t) => {
  const r = await runRole(playbook, inventory, vars);
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.is(await sh('ovn-nbctl get-connection'), 'ptcp:6641:0.0.0.0');
  t.is(await sh('ovn-sbctl get-connection'), 'read-write role="" ptcp:6642:0.0.0.0');
  t.is(await encaps(), `geneve,${ip}`);
  t.is(await sh('ovs-vsctl get Open_vSwitch . external_ids:ovn-remote external_ids:ovn-bridge-datapath-type'), `"tcp:${ip}:6642"\nnetdev`);
  t.is(await sh('cat /etc/openvswitch/system-id.conf'), name);
  t.is(await sh('ovs-vsctl get Bridge br-int datapath_type'), 'netdev');
  t.is(await sh('firewall-cmd --zone=trusted --list-sources; firewall-cmd --permanent --zone=trusted --list-sources'), `${ip.replace(/\.\d+$/, '.0')}/24\n${ip.replace(/\.\d+$/, '.0')}/24`);
  const again = await runRole(playbook, inventory, vars);
  t.is(again.summary.exitCode, 0, again.failed.join('\n'));
  t.deepEqual(again.changed, []);
});

test.serial('drift of the encapsulation type: --check reports only it and leaves it; a run fixes it', async (t) => {
  await sh('ovs-vsctl set Open_vSwitch . external_ids:ovn-encap-type=vxlan');
  const check = await runRole(playbook, inventory, vars, true);
  t.is(check.summary.exitCode, 0, check.failed.join('\n'));
  t.deepEqual(check.changed, [`${name}: OVN settings in the local OVS database (external_ids)`]);
  t.is(await sh('ovs-vsctl get Open_vSwitch . external_ids:ovn-encap-type'), 'vxlan');
  const fix = await runRole(playbook, inventory, vars);
  t.is(fix.summary.exitCode, 0, fix.failed.join('\n'));
  t.deepEqual(fix.changed, [`${name}: OVN settings in the local OVS database (external_ids)`]);
  t.is(await encaps(), `geneve,${ip}`, 'the readiness wait saw the geneve encap back in the SB DB');
});

test.serial('the chassis name survives an Open vSwitch restart (ovs-ctl re-applies system-id.conf)', async (t) => {
  await sh('systemctl restart openvswitch-switch');
  t.is(await sh('ovs-vsctl get Open_vSwitch . external_ids:system-id'), name);
  const r = await runRole(playbook, inventory, vars);
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.deepEqual(r.changed, []);
});

test.serial('the vxlan option: the chassis is ready only once the SB DB lists its vxlan endpoint', async (t) => {
  const r = await runRole(playbook, inventory, { ...vars, sdn_agent_ovn_encap_type: 'vxlan' });
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.is(await encaps(), `vxlan,${ip}`);
});
