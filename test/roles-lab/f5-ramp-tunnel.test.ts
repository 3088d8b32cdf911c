// Role f5_ramp_node's tunnel on one real lab host (vxlan: the lab kernel has no ipip): --check changes
// nothing, a converge is idempotent, a tunnel with another remote or VNI - set by the role's variables
// or made by hand - is replaced and never duplicated, and the persistence unit re-creates a deleted
// tunnel from its script. The routed SDN path, HA, reboot and OVS mode: molecule/f5-ramp.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { runRole } from './sdn-agent-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-f5-ramp-'));
const inventory = path.join(dir, 'inventory.yml');
const playbook = path.join(dir, 'ramp.yml');
let lab: LabHost | undefined;

const sh = async (cmd: string) => {
  const r = await lab!.transport.exec(cmd);
  return { rc: r.code, out: r.stdout.trim() };
};

/** Every vxlan link on the host as `name remote id`. */
const vxlans = async () => {
  const links = JSON.parse((await sh('ip -j -d link show type vxlan')).out || '[]') as { ifname: string; linkinfo: { info_data: { remote?: string; id: number } } }[];
  return links.map((l) => `${l.ifname} ${l.linkinfo.info_data.remote ?? '-'} ${l.linkinfo.info_data.id}`);
};

const vars = (f5: string, extra: Record<string, unknown> = {}) => ({
  f5_ramp_tunnel_mode: 'vxlan', f5_ramp_f5_ip: f5, f5_ramp_f5_tunnel_ip: '10.3.91.216', f5_ramp_tunnel_ip: '10.3.91.217',
  f5_ramp_sdn: 'routed', f5_ramp_sdn_ip: '10.244.1.254', f5_ramp_cluster_network: '10.244.0.0/16', ...extra,
});

test.before(async () => {
  lab = await labHost(LAB);
  writeFileSync(inventory, labInventoryYaml(lab.state));
  writeFileSync(playbook, '- hosts: all\n  roles:\n    - f5_ramp_node\n');
});

test.after.always(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

test.serial('--check on a fresh host reports the tunnel and the unit, and changes nothing', async (t) => {
  const r = await runRole(playbook, inventory, vars('192.0.2.10'), true);
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.true(r.changed.some((c) => c.includes('The tunnel device')), r.changed.join('\n'));
  t.true(r.changed.some((c) => c.includes('The unit')), r.changed.join('\n'));
  t.deepEqual(await vxlans(), []);
  t.is((await sh('test -e /etc/systemd/system/hostwire-f5-ramp.service')).rc, 1, 'check mode wrote the unit');
});

test.serial('converge: one vxlan tunnel to the F5, the unit active, tmsh written; a re-run changes nothing', async (t) => {
  const r = await runRole(playbook, inventory, vars('192.0.2.10'));
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.deepEqual(await vxlans(), ['tun1 192.0.2.10 1']);
  t.regex((await sh('ip -br addr show dev tun1')).out, /10\.3\.91\.217\/24/);
  t.regex((await sh('ip -4 route show 10.3.91.216')).out, /^10\.3\.91\.216 dev tun1/);
  t.is((await sh('systemctl is-active hostwire-f5-ramp; systemctl is-enabled hostwire-f5-ramp')).out, 'active\nenabled');
  t.regex((await sh('iptables -w -t nat -S POSTROUTING')).out, /-s 10\.3\.91\.216\/32 -d 10\.244\.0\.0\/16 .*-j SNAT --to-source 10\.244\.1\.254/);
  const tmsh = readFileSync(path.join(dir, 'f5-ramp-SDN.tmsh'), 'utf8');
  t.regex(tmsh, /^tmsh create net tunnels tunnel SDN \\\{ description "OpenShift SDN" key 1 local-address 192\.0\.2\.10 profile SDN_vxlan remote-address 10\.\d+\.\d+\.\d+ \\\}$/m);
  const again = await runRole(playbook, inventory, vars('192.0.2.10'));
  t.is(again.summary.exitCode, 0, again.failed.join('\n'));
  t.deepEqual(again.changed, []);
});

test.serial('another remote or VNI in the variables replaces the tunnel, never a second one', async (t) => {
  const r = await runRole(playbook, inventory, vars('192.0.2.20'));
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.true(r.changed.some((c) => c.includes('is removed first')), r.changed.join('\n'));
  t.deepEqual(await vxlans(), ['tun1 192.0.2.20 1']);
  const vni = await runRole(playbook, inventory, vars('192.0.2.20', { f5_ramp_vxlan_id: 7 }));
  t.is(vni.summary.exitCode, 0, vni.failed.join('\n'));
  t.deepEqual(await vxlans(), ['tun1 192.0.2.20 7']);
  t.is((await runRole(playbook, inventory, vars('192.0.2.20', { f5_ramp_vxlan_id: 7 }))).changed.length, 0);
});

test.serial('a tunnel made by hand with another remote is replaced by the next run', async (t) => {
  await sh('ip link del tun1; ip link add tun1 type vxlan id 7 remote 198.51.100.1 dstport 4789 dev eth0; ip link set tun1 up');
  const check = await runRole(playbook, inventory, vars('192.0.2.20', { f5_ramp_vxlan_id: 7 }), true);
  t.true(check.changed.some((c) => c.includes('is removed first')), check.changed.join('\n'));
  t.deepEqual(await vxlans(), ['tun1 198.51.100.1 7'], '--check changed the host');
  const r = await runRole(playbook, inventory, vars('192.0.2.20', { f5_ramp_vxlan_id: 7 }));
  t.is(r.summary.exitCode, 0, r.failed.join('\n'));
  t.deepEqual(await vxlans(), ['tun1 192.0.2.20 7']);
});

test.serial('the unit re-creates a lost tunnel, address, route and SNAT rule from its script', async (t) => {
  await sh("ip link del tun1; iptables -w -t nat -S POSTROUTING | grep 'hostwire f5 ramp' | sed 's/^-A/-D/' | while read -r r; do eval iptables -w -t nat $r; done");
  t.deepEqual(await vxlans(), []);
  t.is((await sh('systemctl restart hostwire-f5-ramp')).rc, 0);
  t.deepEqual(await vxlans(), ['tun1 192.0.2.20 7']);
  t.regex((await sh('ip -br addr show dev tun1')).out, /10\.3\.91\.217\/24/);
  t.regex((await sh('ip -4 route show 10.3.91.216')).out, /dev tun1/);
  t.regex((await sh('iptables -w -t nat -S POSTROUTING')).out, /--to-source 10\.244\.1\.254/);
  t.regex((await sh('journalctl -u hostwire-f5-ramp -o cat --no-pager | tail -n 5')).out, /created vxlan tunnel tun1 to 192\.0\.2\.20/);
  // The role's run afterwards finds everything in place (same rule spelling as the script's).
  t.deepEqual((await runRole(playbook, inventory, vars('192.0.2.20', { f5_ramp_vxlan_id: 7 }))).changed, []);
});
