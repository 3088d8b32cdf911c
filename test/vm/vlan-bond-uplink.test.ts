// VM tier (npm run test:vm), issue 20: a dual-stack node address (static IPv4 and IPv6, a default route of
// each family) on VLAN 100 over an active-backup bond of two NICs moves onto br-ex with the kernel datapath.
// The far end of the VLAN is a second VM that routes it to the lab (vlan-lab.ts). An injected failure (a
// check target nothing answers) rolls back within the window to exactly the VLAN and bond it had; the move
// keeps SSH on the same address with bond0.100 as br-ex's one port, both families' addresses and default
// routes, the bond's options and the VLAN; a second run and --check change nothing; cutting the active
// port's cable fails over (the gap is logged); a reboot (`lab reboot`) keeps it all (the boot oneshot makes
// the bond and the VLAN again and re-attaches the VLAN). The same scenario with an 802.1ad (QinQ) VLAN on the bond
// against an 802.1ad far end (its own VMs): only an S-tagged VLAN on the host reaches the peer, so SSH on the node
// address after the move, the cable cut and the reboot proves the recorded VLAN_PROTO is made again.
import test, { type ExecutionContext } from 'ava';
import { labPing } from '../helpers/lab-ping.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, esc, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { failoverDrill, rebootUntil, rollbackDrill } from './vm-drills.js';
import { VLAN, VLAN_SNAPSHOT, vlanLab, vlanTheHost } from './vlan-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

/** What the move must leave on the host, asserted after the move and again after a reboot. */
async function assertVlanOnBrEx(t: ExecutionContext, l: VmUplinkLab, mac: string, proto: string): Promise<void> {
  t.regex(await l.sh('ip -o -6 addr show dev br-ex scope global'), new RegExp(`inet6 ${esc(VLAN.host6)}/64`), 'the IPv6 address on br-ex');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev br-ex (proto static )?metric 48`));
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`default via ${esc(VLAN.gw6)} dev br-ex (proto static )?metric 48`));
  t.is((await l.sh(`ip -o addr show dev ${VLAN.dev} scope global`)).trim(), '', 'the VLAN device holds no address');
  t.regex(await l.sh(`ip -d -o link show dev ${VLAN.dev}`), new RegExp(`${esc(VLAN.dev)}@bond0: .*link/ether ${esc(mac)} .*vlan protocol ${esc(proto)} id ${VLAN.id} `));
  t.regex(await l.sh('ip -o link show dev br-ex'), new RegExp(`link/ether ${esc(mac)} `), 'br-ex has the VLAN\'s MAC');
  const bond = await l.sh('cat /proc/net/bonding/bond0');
  t.regex(bond, /Bonding Mode: fault-tolerance \(active-backup\)[\s\S]*Primary Slave: eth1[\s\S]*MII Polling Interval \(ms\): 100\nUp Delay \(ms\): 200/);
  t.regex(bond, /Slave Interface: eth1\nMII Status: up[\s\S]*Slave Interface: eth2\nMII Status: up/);
}

async function ping6(l: VmUplinkLab) {
  let r = await labPing(l.state, VLAN.host6, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && r.code !== 0; i++) r = await labPing(l.state, VLAN.host6, ['-6', '-c3', '-i0.5', '-W3']);
  return r;
}

/** The scenario on its own VMs (`protocol`: the VLAN's on both ends, 802.1Q unless given). */
async function vlanBondScenario(t: ExecutionContext, lab: string, protocol?: '802.1ad'): Promise<void> {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const proto = protocol ?? '802.1Q';
  const rec = `probe-vlan-kbond-${protocol ? 'qinq' : 'static'}`;
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const v = await vlanLab(t, lab, protocol ? { protocol } : {});
  if (protocol) t.regex(await v.peerSh(`ip -d -o link show dev eth1.${VLAN.id}`), /vlan protocol 802\.1ad id /, 'the far end is an 802.1ad VLAN');
  let at = Date.now();
  const l = await vlanTheHost(v, { v4: true, v6: true, ...(protocol ? { protocol } : {}) });
  step(`host on ${VLAN.dev} (v4+v6, ${proto})`, at);
  const mac = (await l.sh(`cat /sys/class/net/${VLAN.dev}/address`)).trim();
  const before = await l.sh(VLAN_SNAPSHOT);
  t.regex(before, new RegExp(`${esc(VLAN.dev)} inet ${esc(VLAN.host4)}/24[\\s\\S]*${esc(VLAN.dev)} inet6 ${esc(VLAN.host6)}/64`));
  t.regex(before, new RegExp(`vlan protocol ${esc(proto)} id 100`));
  await recordProbe(l, `${rec}-fresh`);

  // Injected failure: a check target nothing answers. The host's check fails, it rolls back.
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  at = Date.now();
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: VLAN.dev, snapshot: VLAN_SNAPSHOT, before, what: 'the VLAN, the bond, both families\' addresses and routes' });
  step('injected failure rolled back', at);

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, VLAN.dev);
  await assertVlanOnBrEx(t, l, mac, proto);
  const p6 = await ping6(l);
  t.is(p6.code, 0, `IPv6 reaches the host on br-ex:\n${p6.stdout}`);
  const moved = await l.sh(VLAN_SNAPSHOT);
  await recordProbe(l, `${rec}-moved`);

  at = Date.now();
  await assertSecondRunIdle(t, l, VLAN_SNAPSHOT, moved);
  step('second run and --check', at);

  // Failover: cut the active port's cable while the lab pings the host's VLAN address every 50 ms.
  t.is(await activePort(l), 'eth1');
  const cut = await failoverDrill(t, l, lab, 'eth1', 'eth2');
  t.log(`failover eth1 -> eth2 under the ${proto} VLAN: ${cut.lost} of 300 pings lost, longest gap ${cut.gap.toFixed(2)} s`);

  // A reboot: nothing but the boot oneshot makes bond0 and bond0.100 again and re-attaches the VLAN.
  at = Date.now();
  await rebootUntil(t, l, lab, 'ip -o -4 addr show dev br-ex', new RegExp(`inet ${esc(VLAN.host4)}/24`), 12 * 60_000);
  step('reboot until the node address is on br-ex', at);
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), VLAN.dev);
  t.regex(await l.sh('ovs-dpctl show'), new RegExp(`system@ovs-system[\\s\\S]*port \\d+: ${esc(VLAN.dev)}(\\s|$)`, 'm'));
  await assertVlanOnBrEx(t, l, mac, proto);
  const after = await ping6(l);
  t.is(after.code, 0, `IPv6 reaches the host on br-ex after the reboot:\n${after.stdout}`);
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

test.serial('VLAN on an active-backup bond, dual-stack static: rollback, move, idempotent, --check, failover, reboot', async (t) => {
  await vlanBondScenario(t, vmLabName('v21vlan'));
});

test.serial('802.1ad (QinQ) VLAN on an active-backup bond, dual-stack static: rollback, move, idempotent, --check, failover, reboot', async (t) => {
  await vlanBondScenario(t, vmLabName('v21vlanad'), '802.1ad');
});
