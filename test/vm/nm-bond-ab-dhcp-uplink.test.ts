// VM tier (npm run test:vm), issue 20: the nm backend with an active-backup bond0 of eth1+eth2 made by
// NetworkManager with a DHCP address (bond-dhcp.ts: NM's bond profile with miimon 100, updelay 200, primary eth1
// and DHCP with the MAC as client id, two port profiles; the second VM leases that one address). An injected
// failure rolls back to the lease on bond0 under NM's own profiles (no ovs-* profile left); the move keeps the
// lease on br-ex (its DHCP needs the bond's carrier: the ports' activations start before ovs-if-br-ex's),
// NM's seven ovs-* profiles active; a second run and --check change nothing; a cut of the active port's cable
// fails over. A power cycle: our profiles are `save no` (in /run), NM's own bond profiles autoconnect at boot; the
// boot oneshot makes ours again - the same lease back on br-ex (SSH on it), the seven profiles active; the run
// after it refuses beside the lab's eth0 and, eth0 let go, changes nothing.
import test from 'ava';
import { activePort, type VmUplinkLab, vmUplinkLab } from './bond-lab.js';
import { dhcpBondScenario } from './bond-dhcp.js';
import { failoverDrill, NM_BOND_HELD } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const ACTIVE = 'nmcli -t -f NAME,DEVICE connection show --active | LC_ALL=C sort';
const HELD = 'for d in bond0 eth1 eth2; do echo "$d $(nmcli -g GENERAL.CONNECTION device show "$d")"; done';
const OURS = ['br-ex:br-ex', 'ovs-if-br-ex:br-ex', 'ovs-if-phys0:bond0', 'ovs-port-br-ex:br-ex', 'ovs-port-phys0:bond0', 'ovs-slave-eth1:eth1', 'ovs-slave-eth2:eth2'];

// Passed whole on main (issue 20; 9.9 min at load 1-9): VM up 268 s, lease on bond0 30 s, the injected failure's run
// 103 s with the lease back on bond0 under NM's profiles 106 s after it began, move 80 s, second run and --check 21 s,
// eth1 cut 4 of 300 lost (gap 0.20 s). An earlier run at load 35-46 lost the controller after the apply (EHOSTUNREACH,
// exit 4; the host's own rollback was not read): the load, as the static scenario's exit 4 at that load was.
// With the power cycle: passed whole in 23.8 min at load 11-16 (SSH on br-ex with the lease 214 s after the power
// cycle began, the seven profiles active at 261 s, the runs after it 63 s).
test.serial('nm backend, NM-made active-backup bond with DHCP on a VM: rollback to NM\'s profiles, the move keeps the lease, idempotent, failover, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const base = await vmUplinkLab(t, LAB, 3, { hosts: 2, vms: 2, nmOvs: true });
  const l: VmUplinkLab = { ...base, role: (vars = {}, check = false) => base.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  const missingOf = (active: string) => OURS.filter((p) => !active.split('\n').includes(p));
  let held = '';
  await dhcpBondScenario(t, l, {
    lab: LAB, nmOptions: 'mode=active-backup,miimon=100,updelay=200,primary=eth1',
    bond: /Bonding Mode: fault-tolerance \(active-backup\)[\s\S]*Primary Slave: eth1[\s\S]*MII Polling Interval \(ms\): 100\nUp Delay \(ms\): 200/,
    ready: async () => {
      held = (await l.sh(HELD)).trim();
      t.is(held, 'bond0 bond0\neth1 bond0-eth1\neth2 bond0-eth2', 'NM holds the bond and its ports under their own profiles');
    },
    afterRollback: async () => {
      t.is((await l.sh(HELD)).trim(), held, 'the rollback gives the bond and its ports back to NM\'s own profiles');
      t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /^ovs-/m, 'no ovs-* profile left');
    },
    afterMove: async () => {
      const active = await l.sh(ACTIVE);
      t.deepEqual(missingOf(active), [], active);
      t.notRegex(active, /^bond0(-eth\d)?:/m, 'NM\'s own bond profiles are not active');
      t.deepEqual((await l.sh('nmcli -g bond.options connection show ovs-if-phys0')).trim().split(',').sort(),
        ['miimon=100', 'mode=active-backup', 'primary=eth1', 'updelay=200'], 'NM\'s profile has the live bond\'s options');
    },
    failover: async () => {
      t.is(await activePort(l), 'eth1');
      const cut = await failoverDrill(t, l, LAB, 'eth1', 'eth2');
      t.log(`failover under NM's active-backup bond profile with DHCP: ${cut.lost} of 300 lost, longest gap ${cut.gap.toFixed(2)} s`);
      t.deepEqual(missingOf(await l.sh(ACTIVE)), [], 'every profile still active after the cable came back');
    },
    nm: NM_BOND_HELD,
  });
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
