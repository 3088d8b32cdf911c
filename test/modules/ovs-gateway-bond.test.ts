// ovs_gateway with a bond or VLAN uplink, from probe output recorded on a lab VM host (real kernel, Debian's
// cloud kernel; test/vm/uplink-bond.test.ts with HW_RECORD_DIR): bond0 = eth1 + eth2 active-backup holding the
// address, VLANs bond0.42 (on the bond) and eth0.7 (on eth0, which is down).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev, renderPrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { assertUplinkCarrier, bondOptions, uplinkDevice } from '../../src/modules/ovs_gateway/uplink-device.js';
import { liveUplinkConfig } from '../../src/modules/ovs_gateway/uplink-config.js';
import { connectTimeoutMs, pollTimeoutMs } from '../../src/modules/ovs_gateway/commit.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'ovs', ...o });
const BOND = 'mode active-backup miimon 100 updelay 200 primary eth1 num_grat_arp 3';

test('recorded bond: the parser sees the bond, its ports (slave kind, carrier) and the VLANs with their parents', (t) => {
  const s = probe('probe-bond-fresh');
  const bond = s.links.find((l) => l.name === 'bond0')!;
  t.is(bond.kind, 'bond');
  t.is(bond.info?.mode, 'active-backup');
  t.true(bond.carrier);
  for (const p of ['eth1', 'eth2']) t.like(s.links.find((l) => l.name === p), { master: 'bond0', slaveKind: 'bond', carrier: true, up: true });
  t.like(s.links.find((l) => l.name === 'bond0.42'), { kind: 'vlan', parent: 'bond0' });
  t.like(s.links.find((l) => l.name === 'eth0.7'), { kind: 'vlan', parent: 'eth0' });
});

test('bond options: the mode and every non-default option as `ip link add type bond` words, nothing else', (t) => {
  const s = probe('probe-bond-fresh');
  t.is(bondOptions(s.links.find((l) => l.name === 'bond0')!).join(' '), BOND);
  t.deepEqual(uplinkDevice(s, 'bond0'), { kind: 'bond', options: BOND.split(' '), members: ['eth1', 'eth2'] });
  t.deepEqual(uplinkDevice(s, 'bond0.42'), { kind: 'vlan', id: 42, protocol: '802.1Q', parent: 'bond0', parentBond: { options: BOND.split(' '), members: ['eth1', 'eth2'] } });
  t.deepEqual(uplinkDevice(s, 'eth0.7'), { kind: 'vlan', id: 7, protocol: '802.1Q', parent: 'eth0' });
  t.deepEqual(uplinkDevice(s, 'eth1'), { kind: 'nic' });
  // A value that is not a plain word never reaches the host script.
  t.throws(() => bondOptions({ name: 'b', mtu: 1500, up: true, addrs: [], info: { mode: 'active-backup', primary: 'eth1;reboot' } }), { message: /option primary "eth1;reboot" is not a plain value/ });
  t.throws(() => bondOptions({ name: 'b', mtu: 1500, up: true, addrs: [] }), { message: /bond b: the kernel reports no mode/ });
  // The kernel's hash policies with `+` (layer3+4 on LACP bonds) are plain values (a LACP move was refused on a VM).
  t.is(bondOptions({ name: 'b', mtu: 1500, up: true, addrs: [], info: { mode: '802.3ad', xmit_hash_policy: 'layer3+4', ad_lacp_rate: 'fast' } }).join(' '), 'mode 802.3ad xmit_hash_policy layer3+4 lacp_rate fast');
});

test('the move of a bond: br-ex.env and .prev record the bond (KIND, options, ports) for the boot oneshot and the rollback', (t) => {
  const s = probe('probe-bond-fresh');
  const move = (planUplink(s, args()).filter(isTxnChange) as TxnChange[])[0]!;
  t.regex(move.summary, /^move bond0 into br-ex/);
  const env = parseEnvText(move.txn.env!);
  t.like(env, { UPLINK: 'bond0', KIND: 'bond', BOND_OPTS: BOND, MEMBERS: 'eth1 eth2', DATAPATH: 'system', DROP_INGRESS: '0', METHOD: 'static' });
  t.is(env.MAC, s.links.find((l) => l.name === 'bond0')!.mac!);
  const prev = parsePrev(move.txn.prev!)!;
  t.deepEqual(prev.device, { kind: 'bond', options: BOND.split(' '), members: ['eth1', 'eth2'] });
  t.is(renderPrev(prev), move.txn.prev!, 'prev round-trips');
  // A NIC uplink's files carry no device lines (files written before bonds existed stay equal).
  t.false(/KIND=/.test(renderPrev({ ...liveUplinkConfig(s, 'bond0'), device: undefined })));
});

test('refused before the move: a bond with a port down; a VLAN whose parent has no carrier; a VLAN on the nm backend', (t) => {
  const down = probe('probe-bond-port-down');
  t.is(down.links.find((l) => l.name === 'eth2')!.carrier, false);
  t.throws(() => planUplink(down, args()), { message: /ovs_gateway: the uplink bond bond0: port eth2 is down \(no carrier\); the move would lose the bond's redundancy/ });
  t.throws(() => planUplink(down, args({ uplink: 'bond0.42' })), { message: /VLAN bond0\.42's parent bond bond0: port eth2 is down/ });
  const s = probe('probe-bond-fresh');
  t.throws(() => assertUplinkCarrier(s, 'eth0.7', uplinkDevice(s, 'eth0.7')), { message: /the uplink eth0\.7 is a VLAN on eth0, which is down or has no carrier/ });
  // The nm backend refuses the same way before the move, and a VLAN on a bond that holds the node address itself
  // (it makes the bond again under its own profile: test/modules/ovs-gateway-nm-vlan-bond.test.ts).
  t.throws(() => planUplink(down, args({ backend: 'nm' })), { message: /ovs_gateway: the uplink bond bond0: port eth2 is down \(no carrier\)/ });
  t.throws(() => planUplink(s, args({ backend: 'nm', uplink: 'bond0.42' })), { message: /the uplink bond0\.42 is a VLAN on the bond bond0, which also carries 10\.138\.195\.11\/24, fd5c:8b::11\/64; .* - use backend: ovs/ });
});

test('a moved bond is converged: nothing to do, the saved .prev still names the bond', (t) => {
  const s = probe('probe-bond-moved');
  const br = s.bridges.find((b) => b.name === 'br-ex')!;
  t.is(br.datapathType, 'system');
  t.deepEqual(br.ports, ['bond0']);
  t.deepEqual(planUplink(s, args()).filter(isTxnChange), []);
  t.like(parsePrev(s.files['/var/lib/hostwire/configure-ovs/br-ex.prev']!)?.device, { kind: 'bond', members: ['eth1', 'eth2'] });
});

// probe-bond-moved with what the lab VM's seed unit does at every boot (the address and `ip route replace default
// via` on eth0, before NetworkManager: "connected (externally)") beside br-ex as the boot oneshot re-made it: the
// state the run after a power cycle probed (test/vm/bond-uplink.test.ts). It chose eth0 by its default route
// (metric 0 below br-ex's 48) and added it to br-ex beside bond0: the host was cut off (exit 4, rolled back).
test('a moved bond with the node address and a default route back on another NIC after a reboot: refused, never a second uplink on br-ex', (t) => {
  const s = probe('probe-bond-rebooted-eth0');
  t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0']);
  t.true(s.routes.some((r) => r.dst === 'default' && r.dev === 'eth0' && r.metric === undefined));
  t.throws(() => planUplink(s, args()), { message: /ovs_gateway: br-ex already carries the uplink bond0, but the uplink chosen now is eth0 \(default route\): moving it too would put two uplinks on one bridge/ });
  // Named, the bond is the uplink br-ex already has: converged, nothing moves.
  t.deepEqual(planUplink(s, args({ uplink: 'bond0' })).filter(isTxnChange), []);
  // The same NIC forced is refused too; the host without eth0's address and route is converged as before.
  t.throws(() => planUplink(s, args({ uplink: 'eth0' })), { message: /br-ex already carries the uplink bond0, but the uplink chosen now is eth0 \(configure_ovs_uplink\)/ });
  t.deepEqual(planUplink(probe('probe-bond-moved'), args()).filter(isTxnChange), []);
});

test("a poll waits a quarter of the host's ansible_timeout (3-20 s): emulated VMs answer slowly, and a poll cut short never confirms", (t) => {
  t.is(pollTimeoutMs(undefined), 3000);
  t.is(pollTimeoutMs('10'), 3000);
  t.is(pollTimeoutMs(60), 15_000);
  t.is(pollTimeoutMs(600), 20_000);
  t.is(pollTimeoutMs('x'), 3000);
  // The first poll of a session just made waits as long as connecting may (a VM's is 60 s).
  t.is(connectTimeoutMs(60), 60_000);
  t.is(connectTimeoutMs(undefined), 10_000);
  t.is(connectTimeoutMs(600), 60_000);
});
