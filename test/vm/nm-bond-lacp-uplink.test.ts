// VM tier (npm run test:vm), issue 20: the nm backend moves an 802.3ad (LACP) bond (lacp_rate fast,
// xmit_hash_policy layer3+4, static IPv4; the far end a second VM bonding the wires, lacp-lab.ts) onto br-ex
// on the kernel datapath as NM's bond profile under ovs-port-phys0 with the same options. An injected
// failure (a gateway nothing answers) rolls back within the window to exactly the bond it had, aggregated
// with its partner again, NM's view as before; the move keeps SSH on the same address and the partner; a
// second run and --check change nothing; a wire cut at both ends is carried by the other port. A power cycle of
// the host (the switch stays up): the profiles are `save no` (in /run), the boot oneshot makes them again - SSH on
// br-ex on the same address, the LACP bond with its options, aggregated with the switch again, the seven profiles
// active; the run after it refuses beside the lab's eth0 and, eth0 let go, changes nothing. The partner waits are
// lacp-lab.ts's assertLacpPartner, the rollback vm-drills.ts's rollbackDrill; bond0 has its link-local back
// after the move (addr_gen_mode 0, the line added for the active-backup failover).
import test from 'ava';
import { assertMovedOntoBrEx, assertSecondRunIdle, BOND_SNAPSHOT, esc, type VmUplinkLab } from './bond-lab.js';
import { assertLacpPartner, lacpLab, wireCutDrill } from './lacp-lab.js';
import { BOND_LINES, idleAfterReboot, NM_BOND_HELD, rebootKeepsBond, rollbackDrill } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { scenarioLog } from './scenario-log.js';
import { vmLabName } from './lab-name.js';
import { assertNoChurn, bootChurn, ONESHOT_BOUND_S } from './boot-churn.js';

const LAB = vmLabName(import.meta.url);
// The devices the move touches: the host's spare eth3 (on the lab bridge) cycles through NM's auto DHCP
// ("connecting (getting IP configuration)", then "disconnected"), which failed one run's compare.
const NM_DEVICES = 'nmcli -t -f DEVICE,TYPE,STATE device | grep -E "^(bond0|eth[0-2]):" | sort';

test.serial('nm backend, LACP bond uplink on a VM: rollback exactly, move with the options kept, idempotent, wire cut, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const { note, step } = scenarioLog(t, LAB);
  let at = Date.now();
  const lab = await lacpLab(t, LAB, { nmOvs: true });
  const l: VmUplinkLab = { ...lab.l, role: (vars = {}, check = false) => lab.l.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  const nmLab = { ...lab, l };
  step('VMs up, switch and host bonded', at);
  const before = await l.sh(BOND_SNAPSHOT);
  const bondBefore = await l.sh(BOND_LINES);
  const nmBefore = await l.sh(NM_DEVICES);

  at = Date.now();
  const wrong = l.gw.replace(/\.\d+$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_gateway: wrong }, target: wrong, uplink: 'bond0', snapshot: BOND_SNAPSHOT, before, what: 'the LACP bond, its address and routes' });
  step('injected failure run', at);
  t.is(await l.sh(NM_DEVICES), nmBefore, 'NM: the ports unmanaged again');
  await assertLacpPartner(t, nmLab, ' after the rollback');

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move);
  t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(l.gw)} dev br-ex proto static metric 48 *$`, 'm'));
  t.regex(await l.sh('nmcli -t -f NAME,TYPE,DEVICE connection show --active | sort'), /^ovs-if-phys0:bond:bond0\n[\s\S]*^ovs-slave-eth1:802-3-ethernet:eth1\novs-slave-eth2:802-3-ethernet:eth2$/m);
  t.deepEqual((await l.sh('nmcli -g bond.options connection show ovs-if-phys0')).trim().split(',').sort(),
    ['lacp_rate=fast', 'miimon=100', 'mode=802.3ad', 'xmit_hash_policy=layer3+4'], 'NM\'s profile has the live bond\'s options');
  const bond = await assertLacpPartner(t, nmLab, ' after the move');
  t.regex(bond, /Bonding Mode: IEEE 802\.3ad Dynamic link aggregation\nTransmit Hash Policy: layer3\+4/);
  t.regex(bond, /LACP rate: fast/);
  t.is((await l.sh('cat /proc/sys/net/ipv6/conf/bond0/addr_gen_mode')).trim(), '0', 'bond0\'s link-local given back (eui64)');

  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, await l.sh(BOND_SNAPSHOT));
  step('second run and --check', at);
  const cut = await wireCutDrill(t, nmLab, LAB);
  t.log(`wire cut under NM's LACP bond profile: ${cut.lost} of 300 lost, longest gap ${cut.gap.toFixed(2)} s`);

  at = Date.now();
  await rebootKeepsBond(t, l, LAB, 'ip -o -4 addr show dev br-ex', new RegExp(`inet ${esc(l.ip)}/24`), bondBefore, NM_BOND_HELD);
  step('reboot (SSH on br-ex, the profiles active)', at);
  assertNoChurn(t, await bootChurn(l, note), ONESHOT_BOUND_S);
  await assertLacpPartner(t, nmLab, ' after the reboot');
  t.deepEqual((await l.sh('nmcli -g bond.options connection show ovs-if-phys0')).trim().split(',').sort(),
    ['lacp_rate=fast', 'miimon=100', 'mode=802.3ad', 'xmit_hash_policy=layer3+4'], 'the bond profile made again with the same options');
  t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(l.gw)} dev br-ex proto static metric 48 *$`, 'm'));
  at = Date.now();
  await idleAfterReboot(t, l);
  step('runs after the reboot (refused beside eth0, then idle)', at);
  t.is((await l.sh(NM_BOND_HELD.active)).trim(), NM_BOND_HELD.profiles.trim(), 'the seven profiles still active after the runs');
  await assertLacpPartner(t, nmLab, ' after the runs');
  step('whole scenario', started);
});
