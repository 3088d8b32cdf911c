// `lab up --nm-ovs` on a VM host (its own kernel, the image variant carrying NM rebuilt with OVS): NM loads
// the OVS plugin and activates an ovs-bridge profile set on the kernel datapath (`system`), eth1 its port;
// and the shape the nm backend needs for a bond uplink (MCO's configure-ovs): a `bond` profile that is the
// slave of an ovs-port, its ports' profiles bond slaves, the bond's mode and options kept. eth0 (SSH) is
// never touched. In the VM tier (npm run test:vm).
import test from 'ava';
import { labDown, labUp, type LabState } from '../../src/lab/index.js';
import type { HostState } from '../../src/lab/state.js';
import { shellJoin } from '../../src/transports/quote.js';
import { vmSh } from './vm-ssh.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const add = (words: string[]) => shellJoin(['nmcli', 'connection', 'add', ...words, 'save', 'no']);
const BOND_UUID = '6f1d5b0e-8a3c-4d2e-9b7a-1c2d3e4f5a6b';

test('--nm-ovs VM host: NM activates a kernel-datapath ovs-* profile set and a bond under an ovs-port', async (t) => {
  t.teardown(() => labDown(LAB).then(() => undefined, () => undefined));
  await labDown(LAB).catch(() => undefined);
  const started = Date.now();
  const up = await labUp({ name: LAB, hosts: 1, vms: 1, vm: { nics: 3 }, nmOvs: true, vmTimeoutMs: 15 * 60_000 });
  t.log(`VM up in ${((Date.now() - started) / 1000).toFixed(0)} s (image built: ${String(up.vmImageBuilt)})`);
  t.timeout(600_000, `${LAB}: the test's own deadline once the lab is up`);
  const state: LabState = up.state;
  const host: HostState = state.hosts[0]!;
  const sh = (cmd: string) => vmSh(state, host, cmd, 240_000);
  t.regex(await sh('journalctl -u NetworkManager --no-pager -o cat'), /Loaded device plugin: NMOvsFactory/);

  // A bridge on eth1, kernel datapath: NM makes it in ovsdb once the interface is attached.
  await sh([
    add(['type', 'ovs-bridge', 'con-name', 'brt', 'connection.interface-name', 'brt', 'ovs-bridge.datapath-type', 'system']),
    add(['type', 'ovs-port', 'con-name', 'brt-port', 'connection.interface-name', 'brt', 'master', 'brt', 'slave-type', 'ovs-bridge']),
    add(['type', 'ovs-interface', 'con-name', 'brt-int', 'connection.interface-name', 'brt', 'master', 'brt-port', 'slave-type', 'ovs-port',
      'ipv4.method', 'manual', 'ipv4.addresses', '192.0.2.5/24', 'ipv6.method', 'disabled']),
    add(['type', 'ovs-port', 'con-name', 'eth1-port', 'connection.interface-name', 'eth1', 'master', 'brt', 'slave-type', 'ovs-bridge']),
    add(['type', 'ethernet', 'con-name', 'eth1-ovs', 'connection.interface-name', 'eth1', 'master', 'eth1-port', 'slave-type', 'ovs-port']),
    'nmcli --wait 90 connection up brt-int', 'nmcli --wait 90 connection up eth1-ovs',
  ].join(' && '));
  t.is((await sh('ovs-vsctl get bridge brt datapath_type')).trim(), 'system');
  const dpif = await sh('ovs-appctl dpif/show');
  t.regex(dpif, /^system@ovs-system:/m);
  t.regex(dpif, /^\s+eth1 \d+\/\d+: \(system\)$/m);
  t.regex(await sh('ip -br addr show dev brt'), /192\.0\.2\.5\/24/);

  // The bond shape: NM refuses an ipv4/ipv6 setting on a bond that is an ovs-port's slave ("'ipv4' not
  // among [connection, bond, 802-3-ethernet (ethernet), ethtool, ovs-interface]"); its ports name it by UUID.
  await sh([
    'modprobe bonding',
    add(['type', 'ovs-port', 'con-name', 'bond-port', 'connection.interface-name', 'bond7', 'master', 'brt', 'slave-type', 'ovs-bridge']),
    add(['type', 'bond', 'con-name', 'bt-bond', 'connection.uuid', BOND_UUID, 'connection.interface-name', 'bond7', 'master', 'bond-port',
      'slave-type', 'ovs-port', 'bond.options', 'mode=active-backup,miimon=100,primary=eth2,updelay=200']),
    add(['type', 'ethernet', 'con-name', 'bt-e2', 'connection.interface-name', 'eth2', 'master', BOND_UUID, 'slave-type', 'bond']),
    'nmcli --wait 90 connection up bt-bond', 'nmcli --wait 90 connection up bt-e2',
  ].join(' && '));
  t.regex(await sh('ovs-appctl dpif/show'), /^\s+bond7 \d+\/\d+: \(system\)$/m);
  const bond = await sh('grep -E "^(Bonding Mode|Primary Slave|MII Polling|Up Delay|Slave Interface)" /proc/net/bonding/bond7');
  t.is(bond.trim(), 'Bonding Mode: fault-tolerance (active-backup)\nPrimary Slave: eth2 (primary_reselect always)\n'
    + 'MII Polling Interval (ms): 100\nUp Delay (ms): 200\nSlave Interface: eth2');
  t.regex(await sh('nmcli -t -f NAME,DEVICE,STATE connection show --active | sort'), /^bt-bond:bond7:activated$[\s\S]*^bt-e2:eth2:activated$/m);
  t.regex(await sh('ip -br addr show dev eth0'), new RegExp(`${host.ip.replace(/\./g, '\\.')}/24`), 'eth0 (SSH) untouched');
});
