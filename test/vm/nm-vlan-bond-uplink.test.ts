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

interface Scenario { l: VmUplinkLab; v: VlanLab; mac: string; bondBefore: string; note(what: string): void; step(what: string, since: number): void }

/** The two VMs with the host's node address on bond0.100 over the kernel's bond0, the role run with the nm backend. */
async function vlanBondHost(t: ExecutionContext, lab: string): Promise<Scenario> {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const { note, step } = scenarioLog(t, lab);
  const at = Date.now();
  const v = await vlanLab(t, lab, { nmOvs: true });
  const at0 = await vlanTheHost(v, { v4: true });
  const l: VmUplinkLab = { ...at0, role: (vars = {}, check = false) => at0.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  step(`VMs up, host on ${DEV} (kernel bond and VLAN)`, at);
  return { l, v, mac: (await l.sh(`cat /sys/class/net/${DEV}/address`)).trim(), bondBefore: await l.sh(BOND_LINES), note, step };
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
  const onBrEx = async () => {
    t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(VLAN.gw4)} dev br-ex proto static metric 48 *$`, 'm'));
    t.is((await l.sh(`ip -o addr show dev ${DEV} scope global; ip -o addr show dev bond0 scope global`)).trim(), '', 'the VLAN and the bond hold no address');
    t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`${esc(DEV)}@bond0: .*link/ether ${esc(mac)} .*vlan protocol 802\\.1Q id ${VLAN.id} `));
    t.is(await l.sh('cat /sys/class/net/bond0/address /sys/class/net/br-ex/address'), `${mac}\n${mac}`, 'the bond and br-ex have the VLAN\'s MAC');
    t.is(await l.sh(BOND_LINES), c.bondBefore, 'the bond NM made has the live bond\'s mode, options and ports');
    t.is((await l.sh(LINK_LOCAL)).trim(), `0\n${eui64(mac)}/64`, 'bond0 has its link-local (the failover\'s NA carries the MAC to the far end)');
  };
  await onBrEx();
  return onBrEx;
}

test.serial('nm backend, VLAN on an active-backup bond on a VM: rollback exactly, move, idempotent, --check, failover', async (t) => {
  const started = Date.now();
  const c = await vlanBondHost(t, LAB);
  const { l } = c;
  const before = await l.sh(VLAN_SNAPSHOT);
  const nmBefore = await l.sh(NM_DEVICES);
  c.note(`NM before: ${nmBefore.trim().replaceAll('\n', '; ')}`);
  await recordProbe(l, 'probe-vlan-bond-nm-fresh');

  let at = Date.now();
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: DEV, snapshot: VLAN_SNAPSHOT, before, what: 'the VLAN and the bond (options, ports, MACs), the address and routes' });
  c.note(`NM's complaints: ${(await l.sh(NM_WARNINGS)).trim().replaceAll('\n', ' | ') || 'none'}`);
  t.is(await l.sh(NM_DEVICES), nmBefore, 'NM: the bond, its ports and the other NICs as before');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /^ovs-/m, 'no ovs-* profile left');
  c.step('injected failure rolled back', at);

  await moveOntoBrEx(t, c);
  // NM 1.42 has vlan.protocol (802.1ad on a kernel-made bond stays refused: proven on NM's own bond only).
  c.note(`NM's vlan.protocol of ovs-if-phys0: ${(await l.sh('nmcli -g vlan.protocol connection show ovs-if-phys0 2>&1; true')).trim()}`);
  await recordProbe(l, 'probe-vlan-bond-nm-moved');

  at = Date.now();
  await assertSecondRunIdle(t, l, VLAN_SNAPSHOT, await l.sh(VLAN_SNAPSHOT));
  c.step('second run and --check', at);

  // NM holds the bond and its ports now: the bond under the VLAN must fail over, and NM give the port back.
  const cut = await failoverDrill(t, l, LAB, 'eth1', 'eth2');
  c.note(`failover under NM's bond profile, VLAN on it: ${cut.lost} of 300 pings lost, longest gap ${cut.gap.toFixed(2)} s`);
  t.true(cut.lost < 30, `the far end learnt the MAC on eth2 at once (${cut.lost} of 300 lost)`);
  t.is(await activeProfiles(l), PROFILES, 'every profile still active after the cable came back');
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

test.serial('nm backend, VLAN on an active-backup bond on a VM: a power cycle keeps it, the runs after it change nothing', async (t) => {
  const started = Date.now();
  const c = await vlanBondHost(t, LAB_REBOOT);
  const { l } = c;
  const onBrEx = await moveOntoBrEx(t, c);
  // The boot oneshot makes the profiles again, NM makes bond0 and bond0.100, the address is back on br-ex.
  const at = Date.now();
  await rebootUntil(t, l, LAB_REBOOT, 'ip -o -4 addr show dev br-ex', new RegExp(`inet ${esc(VLAN.host4)}/24`));
  c.step('power cycle until the node address is on br-ex', at);
  t.is(await activeProfiles(l), PROFILES, 'the same profiles active after the reboot');
  c.note(`after the reboot NM also holds: ${(await l.sh(OTHERS)).trim().replaceAll('\n', '; ')}`);
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), DEV);
  await onBrEx();
  const idle = Date.now();
  await idleAfterReboot(t, l, { uplink: DEV, eth0Ip: c.v.lab.ip });
  c.step('runs after the reboot (refused beside eth0, then idle)', idle);
  t.is(await activeProfiles(l), PROFILES, 'the profiles as the boot made them');
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
