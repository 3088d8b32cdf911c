// VM tier (npm run test:vm), issue 20: the nm backend moves a VLAN on a bond NetworkManager holds under its own
// profiles - the installer's shape (vlan-lab.ts vlanTheHost: bond0 = eth1+eth2 active-backup, miimon 100, updelay
// 200, primary eth1, its two port profiles, bond0.100 a vlan profile on it; the far end the second VM) - as MCO's
// configure-ovs does: ovs-if-phys0 a `vlan` profile under ovs-port-phys0 (vlan.parent bond0, id 100, the VLAN's
// MAC), NM's bond and port profiles left active as they are. With a lease (the peer leases exactly one address, so
// the same address again means the same client) and with a static address: an injected failure (a check target
// nothing answers) rolls back to the VLAN under NM's own profile, NM's view as before; the move keeps the address
// (the lease) and SSH on br-ex; a second run and --check change nothing; cutting the active port fails over.
// A third scenario (its own VMs) power-cycles the host after the DHCP move.
import test, { type ExecutionContext } from 'ava';
import { waitForLease } from './bond-dhcp.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, esc, failure, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { VLAN, VLAN_SNAPSHOT, vlanLab, vlanTheHost, type VlanLab } from './vlan-lab.js';
import { BOND_LINES, failoverDrill, idleAfterReboot, rebootUntil, rollbackDrill, untilOutput } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { scenarioLog } from './scenario-log.js';

const DEV = VLAN.dev;
/** Which profile NM holds each of the uplink's devices under, and in what state. */
const HELD = `for d in bond0 ${DEV} eth1 eth2; do echo "$d $(nmcli -g GENERAL.STATE,GENERAL.CONNECTION device show "$d" | paste -sd ' ')"; done`;
const HELD_BEFORE = ['bond0 100 (connected) bond0', `${DEV} 100 (connected) ${DEV}`, 'eth1 100 (connected) bond0-eth1', 'eth2 100 (connected) bond0-eth2'].join('\n');
// Not eth0's: after a power cycle the lab's seed profile holds eth0 again (idleAfterReboot asserts it, then lets it go).
const ACTIVE = 'nmcli -t -f NAME,TYPE,DEVICE connection show --active | grep -v "^lo:\\|:eth0$" | LC_ALL=C sort';
const PROFILES = ['bond0-eth1:802-3-ethernet:eth1', 'bond0-eth2:802-3-ethernet:eth2', 'bond0:bond:bond0', 'br-ex:ovs-bridge:br-ex', 'ovs-if-br-ex:ovs-interface:br-ex',
  `ovs-if-phys0:vlan:${DEV}`, 'ovs-port-br-ex:ovs-port:br-ex', `ovs-port-phys0:ovs-port:${DEV}`].sort().join('\n');
const NM_WARNINGS = 'journalctl -u NetworkManager --no-pager -o cat --since -15min | grep -E "(bond0|eth1|eth2|ovs-if-phys0)" | grep -iE "fail|warn|error" | tail -n 12; true';
const LEASES = '/run/v21-dhcp.leases';
const lease = new RegExp(`inet ${esc(VLAN.host4)}/24 .*dynamic`);

interface Scenario { l: VmUplinkLab; v: VlanLab; mac: string; bondBefore: string; note(what: string): void; step(what: string, since: number): void }

/** The two VMs with the node address on bond0.100 over NM's bond0 (`dhcp`: a lease, else static), the role on the nm backend. */
async function nmVlanBondHost(t: ExecutionContext, lab: string, dhcp: boolean): Promise<Scenario> {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const { note, step } = scenarioLog(t, lab);
  const at = Date.now();
  const v = await vlanLab(t, lab, { nmOvs: true, dhcp });
  const at0 = await vlanTheHost(v, dhcp ? { dhcp: true } : { v4: true, nm: true });
  const l: VmUplinkLab = { ...at0, role: (vars = {}, check = false) => at0.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  if (dhcp) t.regex(await waitForLease(l, DEV, lease), lease, 'the VLAN holds its lease');
  step(`VMs up, host on ${DEV} (NM's bond and VLAN profiles, ${dhcp ? 'DHCP' : 'static'})`, at);
  t.is(await untilOutput(l, HELD, HELD_BEFORE), HELD_BEFORE, 'NM holds the bond, its ports and the VLAN under their own profiles');
  return { l, v, mac: (await l.sh(`cat /sys/class/net/${DEV}/address`)).trim(), bondBefore: await l.sh(BOND_LINES), note, step };
}

/** The move: SSH kept, MCO's profiles active beside NM's own bond profiles, what must hold on br-ex returned. */
async function moveOntoBrEx(t: ExecutionContext, c: Scenario, dhcp: boolean): Promise<() => Promise<void>> {
  const { l, mac } = c;
  const at = Date.now();
  const move = await l.role();
  c.step('move', at);
  await assertMovedOntoBrEx(t, l, move, DEV);
  t.is(await untilOutput(l, ACTIVE, PROFILES), PROFILES, 'ovs-if-phys0 a vlan profile under OVS, NM\'s bond and port profiles still active');
  t.is((await l.sh('nmcli -g vlan.parent,vlan.id connection show ovs-if-phys0')).trim(), `bond0\n${VLAN.id}`);
  const onBrEx = async () => {
    if (dhcp) t.regex(await l.sh('ip -o -4 addr show dev br-ex'), lease, 'the same lease, now on br-ex');
    t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(VLAN.gw4)} dev br-ex proto ${dhcp ? 'dhcp' : 'static'} .*metric 48 *$`, 'm'));
    t.is((await l.sh(`ip -o addr show dev ${DEV} scope global; ip -o addr show dev bond0 scope global`)).trim(), '', 'the VLAN and the bond hold no address');
    t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`${esc(DEV)}@bond0: .*link/ether ${esc(mac)} .*vlan protocol 802\\.1Q id ${VLAN.id} `));
    t.is((await l.sh('cat /sys/class/net/br-ex/address')).trim(), mac, 'br-ex has the VLAN\'s MAC');
    t.is(await l.sh(BOND_LINES), c.bondBefore, 'NM\'s bond with its mode, options and ports as before');
    if (dhcp) t.regex(await c.v.peerSh(`cat ${LEASES}`), new RegExp(`${esc(mac)} ${esc(VLAN.host4)} `), 'the one lease is the VLAN MAC\'s');
  };
  await onBrEx();
  return onBrEx;
}

/** The rest after the rollback: move, second run and --check, the active port's cable cut. */
async function moveIdleFailover(t: ExecutionContext, c: Scenario, lab: string, dhcp: boolean): Promise<void> {
  const { l } = c;
  await moveOntoBrEx(t, c, dhcp);
  await recordProbe(l, `probe-vlan-nmbond-${dhcp ? 'dhcp' : 'static'}-moved`);
  const at = Date.now();
  await assertSecondRunIdle(t, l, VLAN_SNAPSHOT, await l.sh(VLAN_SNAPSHOT));
  c.step('second run and --check', at);
  const cut = await failoverDrill(t, l, lab, 'eth1', 'eth2');
  c.note(`failover under NM's own bond profile, VLAN on it under OVS (${dhcp ? 'DHCP' : 'static'}): ${cut.lost} of 300 pings lost, longest gap ${cut.gap.toFixed(2)} s`);
  t.true(cut.lost < 30, `the far end learnt the MAC on eth2 at once (${cut.lost} of 300 lost)`);
  t.is(await untilOutput(l, ACTIVE, PROFILES), PROFILES, 'every profile still active after the cable came back');
}

test.serial('nm backend, DHCP on a VLAN on NM\'s own active-backup bond on a VM: rollback to NM\'s profiles, the move keeps the lease, idempotent, --check, failover', async (t) => {
  const started = Date.now();
  const lab = 'vlnmbdhcp';
  const c = await nmVlanBondHost(t, lab, true);
  const { l } = c;
  await recordProbe(l, 'probe-vlan-nmbond-dhcp-fresh');
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  const at = Date.now();
  const bad = await l.role({ configure_ovs_check_targets: [dead] });
  c.step('injected failure run', at);
  t.is(bad.summary.exitCode, 2, failure(bad));
  t.regex(failure(bad), new RegExp(`rolled back after [\\d.]+ s: connectivity check failed: ${esc(dead)} does not answer through br-ex`));
  t.regex(await waitForLease(l, DEV, lease), lease, 'the rollback gives the VLAN its lease back');
  c.step('lease back on the VLAN after the injected failure', at);
  c.note(`NM's complaints: ${(await l.sh(NM_WARNINGS)).trim().replaceAll('\n', ' | ') || 'none'}`);
  t.is(await untilOutput(l, HELD, HELD_BEFORE), HELD_BEFORE, 'NM holds the bond, its ports and the VLAN under their own profiles again');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /^ovs-/m, 'no ovs-* profile left');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev ${esc(DEV)} proto dhcp`));
  t.is((await l.sh(`cat /sys/class/net/${DEV}/address`)).trim(), c.mac);
  t.is(await l.sh(BOND_LINES), c.bondBefore, 'bond options and ports as before');
  await moveIdleFailover(t, c, lab, true);
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

test.serial('nm backend, static address on a VLAN on NM\'s own active-backup bond on a VM: rollback exactly, move, idempotent, --check, failover', async (t) => {
  const started = Date.now();
  const lab = 'vlnmbstat';
  const c = await nmVlanBondHost(t, lab, false);
  const { l } = c;
  const before = await l.sh(VLAN_SNAPSHOT);
  await recordProbe(l, 'probe-vlan-nmbond-static-fresh');
  const at = Date.now();
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: DEV, snapshot: VLAN_SNAPSHOT, before, settleMs: 60_000,
    what: 'the VLAN and NM\'s bond (options, ports, MACs), the address and routes' });
  c.note(`NM's complaints: ${(await l.sh(NM_WARNINGS)).trim().replaceAll('\n', ' | ') || 'none'}`);
  t.is(await untilOutput(l, HELD, HELD_BEFORE), HELD_BEFORE, 'NM holds the bond, its ports and the VLAN under their own profiles again');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /^ovs-/m, 'no ovs-* profile left');
  c.step('injected failure rolled back', at);
  await moveIdleFailover(t, c, lab, false);
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

test.serial('nm backend, DHCP on a VLAN on NM\'s own active-backup bond on a VM: a power cycle keeps the lease on br-ex, the runs after it change nothing', async (t) => {
  const started = Date.now();
  const lab = 'vlnmbboot';
  const c = await nmVlanBondHost(t, lab, true);
  const { l } = c;
  const onBrEx = await moveOntoBrEx(t, c, true);
  // NM brings its bond, ports and (old) VLAN profile up at boot; the boot oneshot makes our profiles again and
  // ovs-if-phys0 takes the VLAN over, the lease comes back on br-ex.
  const at = Date.now();
  await rebootUntil(t, l, lab, 'ip -o -4 addr show dev br-ex', lease);
  c.step('power cycle until the lease is on br-ex', at);
  t.is(await untilOutput(l, ACTIVE, PROFILES), PROFILES, 'the same profiles active after the reboot');
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), DEV);
  await onBrEx();
  const idle = Date.now();
  await idleAfterReboot(t, l, { uplink: DEV, eth0Ip: c.v.lab.ip, probe: 'ip -o -4 addr show dev br-ex', want: lease });
  c.step('runs after the reboot (refused beside eth0, then idle)', idle);
  t.is(await untilOutput(l, ACTIVE, PROFILES), PROFILES, 'the profiles as the boot made them');
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
