// The nm backend with a VLAN on a NIC as the uplink, from probe output recorded on a VM host whose NM has its
// OVS plugin (test/vm/nm-vlan-nic-uplink.test.ts with HW_RECORD_DIR): eth1.100 (VLAN 100 on eth1, made in the
// kernel, NM "connected (externally)") holds 172.31.221.11/24 and the default route; its parent eth1 unmanaged
// (recorded as NM_UNMANAGED for the rollback).
// Fresh, the move is planned as MCO's profiles with a vlan profile as ovs-if-phys0; moved (after the VM's move,
// second run and --check changed nothing), nothing is left to do. The -qinq probes: the same with an 802.1ad
// VLAN (the far end an 802.1ad one too), moved as a vlan profile with vlan.protocol 802.1ad.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { nmUuid } from '../../src/modules/ovs_gateway/nm-profiles.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm', ...o });

test('a VLAN on a NIC, fresh: moved as a vlan profile under ovs-port-phys0 (parent, id, the VLAN\'s MAC), the kernel VLAN deleted first', (t) => {
  const s = probe('probe-vlan-nic-nm-fresh');
  const mac = s.links.find((l) => l.name === 'eth1.100')!.mac!;
  const moves = planUplink(s, args()).filter(isTxnChange) as TxnChange[];
  t.is(moves.length, 1);
  const move = moves[0]!;
  t.regex(move.summary, /^move eth1\.100 into br-ex/);
  t.like(parseEnvText(move.txn.env!), { UPLINK: 'eth1.100', KIND: 'vlan', VLAN_ID: '100', VLAN_PARENT: 'eth1', MAC: mac, BACKEND: 'nm', DATAPATH: 'system' });
  t.like(parsePrev(move.txn.prev!), { iface: 'eth1.100', mac, addrs: ['172.31.221.11/24'], nmUnmanaged: ['eth1'] });
  const nm = move.txn.nm!;
  t.regex(nm, new RegExp(`^nmcli connection add type vlan con-name ovs-if-phys0 connection\\.uuid ${nmUuid('ovs-if-phys0')} connection\\.interface-name eth1\\.100 connection\\.master ${nmUuid('ovs-port-phys0')} .* vlan\\.parent eth1 vlan\\.id 100 802-3-ethernet\\.mtu 1500 802-3-ethernet\\.cloned-mac-address ${mac} save no$`, 'm'));
  t.regex(nm, /^if \[ -e \/proc\/net\/vlan\/eth1\.100 \]; then ip link delete dev eth1\.100; fi$/m);
  t.true(nm.indexOf('ip link delete dev eth1.100') < nm.indexOf('connection up ovs-if-phys0'), 'the kernel VLAN goes before the activation');
  t.regex(nm, /ipv4\.addresses 172\.31\.221\.11\/24/);
  t.notRegex(nm, /managed yes|ovs-slave-/, 'the parent NIC stays as it is');
});

test('a VLAN on a NIC, moved by the nm backend: converged, nothing to do', (t) => {
  const s = probe('probe-vlan-nic-nm-moved');
  t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['eth1.100']);
  t.deepEqual(planUplink(s, args()).filter(isTxnChange), []);
  t.like(parsePrev(s.files['/var/lib/hostwire/configure-ovs/br-ex.prev']!)?.device, { kind: 'vlan', id: 100, parent: 'eth1' });
});

test('moved by the nm backend, then the node\'s other NIC readdressed at boot with a default route: refused, never a second uplink', (t) => {
  // NM's OVS plugin records the VLAN's interface as type "system" (ovs-vsctl leaves it empty): it is br-ex's
  // physical port all the same. Missing that, a run on a VM after a reboot (the lab's seed unit readdresses eth0
  // with a metric-0 default route) moved eth0 onto br-ex beside eth1.100 and lost the host (exit 4, rolled back).
  const s = probe('probe-vlan-nic-nm-moved');
  t.is(s.ovsIfTypes['eth1.100'], 'system');
  const eth0 = s.links.find((l) => l.name === 'eth0')!;
  eth0.up = true;
  eth0.addrs.push({ family: 'inet', local: '10.153.192.11', prefixlen: 24, scope: 'global', dynamic: false });
  s.routes.push({ family: 4, dst: 'default', gateway: '10.153.192.1', dev: 'eth0' });
  t.throws(() => planUplink(s, args()), { message: /br-ex already carries the uplink eth1\.100, but the uplink chosen now is eth0 \(default route\)/ });
  t.deepEqual(planUplink(s, args({ uplink: 'eth1.100' })).filter(isTxnChange), [], 'named, the VLAN br-ex has: converged');
});

test('an 802.1ad (QinQ) VLAN on a NIC, fresh: the vlan profile with vlan.protocol 802.1ad, the protocol recorded for the rollback', (t) => {
  const s = probe('probe-vlan-nic-nm-qinq-fresh');
  t.is(s.links.find((l) => l.name === 'eth1.100')!.info!.protocol, '802.1ad');
  const move = (planUplink(s, args()).filter(isTxnChange) as TxnChange[])[0]!;
  t.like(parseEnvText(move.txn.env!), { UPLINK: 'eth1.100', KIND: 'vlan', VLAN_ID: '100', VLAN_PROTO: '802.1ad', VLAN_PARENT: 'eth1', BACKEND: 'nm' });
  t.like(parsePrev(move.txn.prev!)?.device, { kind: 'vlan', id: 100, protocol: '802.1ad', parent: 'eth1' });
  t.regex(move.txn.nm!, /^nmcli connection add type vlan con-name ovs-if-phys0 .* vlan\.parent eth1 vlan\.id 100 vlan\.protocol 802\.1ad 802-3-ethernet\.mtu 1500 /m);
});

test('an 802.1ad VLAN on a NIC, moved by the nm backend: converged, nothing to do (not refused as QinQ again)', (t) => {
  const s = probe('probe-vlan-nic-nm-qinq-moved');
  t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['eth1.100']);
  t.is(s.links.find((l) => l.name === 'eth1.100')!.info!.protocol, '802.1ad');
  t.deepEqual(planUplink(s, args()).filter(isTxnChange), []);
  t.like(parsePrev(s.files['/var/lib/hostwire/configure-ovs/br-ex.prev']!)?.device, { kind: 'vlan', id: 100, protocol: '802.1ad', parent: 'eth1' });
});

test('an 802.1ad VLAN with an nmcli older than 1.42 (no vlan.protocol): refused before any change, naming the version', (t) => {
  const text = readFileSync(new URL('../../../src/modules/ovs_gateway/cases/probe-vlan-nic-nm-qinq-fresh.txt', import.meta.url), 'utf8');
  const at = (version: string) => parseGatewayProbe(text.replace(/^running$/m, `running\n@@version ${version}`));
  t.is(at('1.40.16').nm.version, '1.40.16');
  t.throws(() => planUplink(at('1.40.16'), args()), { message: /the uplink eth1\.100 is an 802\.1ad \(QinQ\) VLAN on eth1; NetworkManager 1\.40\.16 has no vlan\.protocol \(1\.42 and later\).* - use backend: ovs/ });
  t.is(planUplink(at('1.42.4'), args()).filter(isTxnChange).length, 1, 'the lab\'s 1.42.4 moves it');
  t.is(planUplink(probe('probe-vlan-nic-nm-qinq-fresh'), args()).filter(isTxnChange).length, 1, 'a recording without the version: as before');
  t.is(planUplink(at('1.30.0'), args({ backend: 'ovs' })).filter(isTxnChange).length, 1, 'the ovs backend is not held back by NM\'s version');
});
