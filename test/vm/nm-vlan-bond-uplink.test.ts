// VM tier (npm run test:vm), issue 20: the nm backend moves a VLAN on an active-backup bond (bond0.100 on
// bond0 = eth1+eth2, miimon 100, updelay 200, primary eth1, static IPv4, all made in the kernel, the ports
// unmanaged by NM; the far end the second VM of vlan-lab.ts) onto br-ex on the kernel datapath: ovs-if-phys0
// a `vlan` profile under ovs-port-phys0 (vlan.parent bond0, id 100, the VLAN's MAC), the bond under a profile
// of its own beside OVS (ovs-parent-bond0: the same options) with its ports' profiles, up before the VLAN.
// An injected failure (a check target nothing answers) rolls back within the window to exactly the VLAN and
// bond it had, NM's view as before; the move keeps SSH on the same address; a second run and --check change
// nothing; cutting the active port fails over (the bond's link-local back: its NA moves the MAC at the far
// end). A second scenario (its own VMs: both in one ran past the tier's 30 min under load) moves it and
// power-cycles the host: the boot oneshot makes the profiles again and the runs afterwards change nothing.
// A third (its own VMs) drills all of it on an 802.1ad (QinQ) VLAN, the far end an 802.1ad VLAN too: passed whole in
// 17.1 min at load 6-11 (VMs up 327 s, rolling back 72.9 s after the apply began, move 75 s, second run and --check
// 40 s, eth1 cut 2 of 300 lost (gap 0.10 s), SSH on br-ex 196 s after the power cycle, runs after it 46 s). Its
// first run passed every drill but found the boot oneshot failed after the power cycle (the address on br-ex 169 s
// after it; the lab went before its journal was read: rebootUntil now prints it).
import test, { type ExecutionContext } from 'ava';
import { assertMovedOntoBrEx, assertSecondRunIdle, esc, eui64, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { VLAN, VLAN_SNAPSHOT, vlanLab, vlanTheHost, type VlanLab } from './vlan-lab.js';
import { BOND_LINES, failoverDrill, idleAfterReboot, rebootUntil, rollbackDrill, untilOutput } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { scenarioLog } from './scenario-log.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName('vmnmvb');
const LAB_REBOOT = vmLabName('vmnmvbr');
const DEV = VLAN.dev;
// The VLAN's own state flips between NM's views of a kernel device: left out, as in nm-vlan-nic-uplink.
const NM_DEVICES = `nmcli -t -f DEVICE,TYPE,STATE device | grep -v "^lo:\\|^${DEV}:" | sort`;
const ACTIVE = 'nmcli -t -f NAME,TYPE,DEVICE connection show --active | grep -E "^(br-ex|ovs-)" | sort';
const OTHERS = 'nmcli -t -f NAME,DEVICE,STATE connection show --active | grep -vE "^(br-ex|ovs-|lo:)" | sort; true';
const PROFILES = ['br-ex:ovs-bridge:br-ex', 'ovs-if-br-ex:ovs-interface:br-ex', `ovs-if-phys0:vlan:${DEV}`, 'ovs-parent-bond0:bond:bond0',
  'ovs-port-br-ex:ovs-port:br-ex', `ovs-port-phys0:ovs-port:${DEV}`, 'ovs-slave-eth1:802-3-ethernet:eth1', 'ovs-slave-eth2:802-3-ethernet:eth2'].join('\n');
// What NM said of the bond and its ports (a failed activation's reason), for the log.
const NM_WARNINGS = 'journalctl -u NetworkManager --no-pager -o cat --since -15min | grep -E "(bond0|eth1|eth2|ovs-parent|ovs-slave)" | grep -iE "fail|warn|error" | tail -n 12; true';
const LINK_LOCAL = 'cat /proc/sys/net/ipv6/conf/bond0/addr_gen_mode; ip -o -6 addr show dev bond0 scope link | grep -o "fe80::[0-9a-f:]*/64"';

const activeProfiles = (l: VmUplinkLab) => untilOutput(l, ACTIVE, PROFILES);

interface Scenario {
  l: VmUplinkLab; v: VlanLab; lab: string; mac: string; bondBefore: string;
  /** The VLAN's protocol on both ends, as `ip -d link` shows it; in probe names: -qinq for 802.1ad. */
  proto: string; tag: string;
  note(what: string): void; step(what: string, since: number): void;
}

/**
 * The two VMs with the host's node address on bond0.100 over the kernel's bond0, the role run with the nm backend
 * (`protocol` 802.1ad: the VLAN a QinQ one on both ends, so only an S-tagged VLAN on the host reaches the far end).
 */
async function vlanBondHost(t: ExecutionContext, lab: string, protocol?: '802.1ad'): Promise<Scenario> {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const { note, step } = scenarioLog(t, lab);
  const at = Date.now();
  const qinq = protocol ? { protocol } : {};
  const v = await vlanLab(t, lab, { nmOvs: true, ...qinq });
  const at0 = await vlanTheHost(v, { v4: true, ...qinq });
  const l: VmUplinkLab = { ...at0, role: (vars = {}, check = false) => at0.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  const proto = protocol ?? '802.1Q';
  step(`VMs up, host on ${DEV} (kernel bond and ${proto} VLAN)`, at);
  if (protocol) t.regex(await v.peerSh(`ip -d -o link show dev eth1.${VLAN.id}`), /vlan protocol 802\.1ad id /, 'the far end is an 802.1ad VLAN');
  t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`vlan protocol ${esc(proto)} id ${VLAN.id} `), `the host's VLAN is ${proto}`);
  return { l, v, lab, proto, tag: protocol ? '-qinq' : '', mac: (await l.sh(`cat /sys/class/net/${DEV}/address`)).trim(), bondBefore: await l.sh(BOND_LINES), note, step };
}

/** The move: SSH kept, the profile set active, what must hold on br-ex (asserted again after a reboot) returned. */
async function moveOntoBrEx(t: ExecutionContext, c: Scenario): Promise<() => Promise<void>> {
  const { l, mac } = c;
  const at = Date.now();
  const move = await l.role();
  c.step('move', at);
  await assertMovedOntoBrEx(t, l, move, DEV);
  t.is(await activeProfiles(l), PROFILES, 'MCO\'s profile set with a vlan profile as ovs-if-phys0, the bond and its ports beside it');
  t.regex(await l.sh('nmcli -g bond.options connection show ovs-parent-bond0'), /^mode=active-backup,miimon=100,primary=eth1,updelay=200$/m);
  // 802.1Q: vlan.protocol left unset (NM's default), as MCO's profile has it.
  if (c.proto !== '802.1Q') t.is((await l.sh('nmcli -g vlan.protocol connection show ovs-if-phys0')).trim(), c.proto, 'ovs-if-phys0 carries the VLAN\'s protocol');
  const onBrEx = async () => {
    t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(VLAN.gw4)} dev br-ex proto static metric 48 *$`, 'm'));
    t.is((await l.sh(`ip -o addr show dev ${DEV} scope global; ip -o addr show dev bond0 scope global`)).trim(), '', 'the VLAN and the bond hold no address');
    t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`${esc(DEV)}@bond0: .*link/ether ${esc(mac)} .*vlan protocol ${esc(c.proto)} id ${VLAN.id} `));
    t.is(await l.sh('cat /sys/class/net/bond0/address /sys/class/net/br-ex/address'), `${mac}\n${mac}`, 'the bond and br-ex have the VLAN\'s MAC');
    t.is(await l.sh(BOND_LINES), c.bondBefore, 'the bond NM made has the live bond\'s mode, options and ports');
    t.is((await l.sh(LINK_LOCAL)).trim(), `0\n${eui64(mac)}/64`, 'bond0 has its link-local (the failover\'s NA carries the MAC to the far end)');
  };
  await onBrEx();
  return onBrEx;
}

/** The injected failure rolled back exactly, the move, the second run and --check, the active port's cable cut. Returns onBrEx. */
async function rollbackMoveFailover(t: ExecutionContext, c: Scenario): Promise<() => Promise<void>> {
  const { l } = c;
  const before = await l.sh(VLAN_SNAPSHOT);
  const nmBefore = await l.sh(NM_DEVICES);
  c.note(`NM before: ${nmBefore.trim().replaceAll('\n', '; ')}`);
  await recordProbe(l, `probe-vlan-bond-nm${c.tag}-fresh`);

  let at = Date.now();
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: DEV, snapshot: VLAN_SNAPSHOT, before, what: 'the VLAN and the bond (options, ports, MACs), the address and routes' });
  c.note(`NM's complaints: ${(await l.sh(NM_WARNINGS)).trim().replaceAll('\n', ' | ') || 'none'}`);
  t.is(await l.sh(NM_DEVICES), nmBefore, 'NM: the bond, its ports and the other NICs as before');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /^ovs-/m, 'no ovs-* profile left');
  c.step('injected failure rolled back', at);

  const onBrEx = await moveOntoBrEx(t, c);
  await recordProbe(l, `probe-vlan-bond-nm${c.tag}-moved`);

  at = Date.now();
  await assertSecondRunIdle(t, l, VLAN_SNAPSHOT, await l.sh(VLAN_SNAPSHOT));
  c.step('second run and --check', at);

  // NM holds the bond and its ports now: the bond under the VLAN must fail over, and NM give the port back.
  at = Date.now();
  const cut = await failoverDrill(t, l, c.lab, 'eth1', 'eth2');
  c.step(`failover under NM's bond profile, ${c.proto} VLAN on it: ${cut.lost} of 300 pings lost, longest gap ${cut.gap.toFixed(2)} s; drill`, at);
  t.true(cut.lost < 30, `the far end learnt the MAC on eth2 at once (${cut.lost} of 300 lost)`);
  t.is(await activeProfiles(l), PROFILES, 'every profile still active after the cable came back');
  return onBrEx;
}

/** A power cycle after the move: the boot oneshot makes the profiles again, NM makes bond0 and bond0.100, the address back on br-ex; the runs after it. */
async function powerCycle(t: ExecutionContext, c: Scenario, onBrEx: () => Promise<void>): Promise<void> {
  const { l } = c;
  const at = Date.now();
  await rebootUntil(t, l, c.lab, 'ip -o -4 addr show dev br-ex', new RegExp(`inet ${esc(VLAN.host4)}/24`));
  c.step('power cycle until the node address is on br-ex', at);
  t.is(await activeProfiles(l), PROFILES, 'the same profiles active after the reboot');
  c.note(`after the reboot NM also holds: ${(await l.sh(OTHERS)).trim().replaceAll('\n', '; ')}`);
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), DEV);
  await onBrEx();
  const idle = Date.now();
  await idleAfterReboot(t, l, { uplink: DEV, eth0Ip: c.v.lab.ip });
  c.step('runs after the reboot (refused beside eth0, then idle)', idle);
  t.is(await activeProfiles(l), PROFILES, 'the profiles as the boot made them');
}

test.serial('nm backend, VLAN on an active-backup bond on a VM: rollback exactly, move, idempotent, --check, failover', async (t) => {
  const started = Date.now();
  const c = await vlanBondHost(t, LAB);
  await rollbackMoveFailover(t, c);
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

test.serial('nm backend, VLAN on an active-backup bond on a VM: a power cycle keeps it, the runs after it change nothing', async (t) => {
  const started = Date.now();
  const c = await vlanBondHost(t, LAB_REBOOT);
  await powerCycle(t, c, await moveOntoBrEx(t, c));
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

test.serial('nm backend, static address on an 802.1ad (QinQ) VLAN on a kernel-made active-backup bond on a VM: rollback exactly, move, idempotent, --check, failover, power cycle', async (t) => {
  const started = Date.now();
  const c = await vlanBondHost(t, vmLabName('vmnmvbq'), '802.1ad');
  await powerCycle(t, c, await rollbackMoveFailover(t, c));
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
