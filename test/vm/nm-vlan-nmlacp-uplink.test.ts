// VM tier (npm run test:vm), issue 20: the nm backend moves a VLAN on an LACP (802.3ad, lacp_rate fast, layer3+4)
// bond NetworkManager holds under its own profiles - the installer's / MCO's shape (nm-vlan-nmbond.ts), the host's
// eth1+eth2 wired to the switch VM (lacp-lab.ts), whose bond0.100 is the VLAN's far end (vlan-lab.ts lacpVlanLab).
// Static address: an injected failure rolled back within the window to exactly the VLAN under NM's own profile,
// aggregated with the switch again; the move keeps the address, the default route and SSH; a second run and --check
// change nothing; the LACP partner live on br-ex; one wire cut at both ends, the other carries the traffic (loss and
// gap measured); a power cycle: the address back on br-ex, the runs after it change nothing. DHCP: the same, its
// power cycle bringing the same lease back on br-ex, aggregated with the switch again.
import test from 'ava';
import { nmVlanBondScenario } from './nm-vlan-nmbond.js';
import { vmLabName } from './lab-name.js';

// Static passed (21.8 min at load 8-21): VMs up 462 s, rolled back 50.5 s after the apply began (host as before 139 s
// after the run began), move 45 s, second run and --check 20 s, eth1 wire cut 0 of 300 lost, SSH on br-ex 394 s after
// the power cycle began, the runs after it 47 s. DHCP passed (17.5 min at load 8-15): VMs up and the lease on
// bond0.100 407 s, the injected failure's run 182 s (lease back on the VLAN 189 s after it began), move 138 s, second
// run and --check 86 s, eth1 wire cut 1 of 300 lost (gap 0.05 s). DHCP with the power cycle passed (24.9 min at
// load 5-19): VMs up 522 s, injected failure 206 s, move 156 s, second run and --check 60 s, wire cut 0 of 300 lost,
// the lease on br-ex 280 s after the power cycle began (the oneshot 39.3 s, no bond deleted), runs after it 51 s.
test.serial('nm backend, static address on a VLAN on NM\'s own LACP bond on a VM: rollback exactly, move, idempotent, --check, wire cut, power cycle', async (t) => {
  await nmVlanBondScenario(t, vmLabName('vkvls'), { dhcp: false, lacp: true, cycle: true });
});

test.serial('nm backend, DHCP on a VLAN on NM\'s own LACP bond on a VM: rollback to NM\'s profiles, the move keeps the lease, idempotent, --check, wire cut, power cycle', async (t) => {
  await nmVlanBondScenario(t, vmLabName('vkvld'), { dhcp: true, lacp: true, cycle: true });
});

// 802.1ad: the switch's bond0.100 an 802.1ad VLAN too, NM's bond0.100 profile with vlan.protocol 802.1ad. Passed whole
// (26.7 min at load 10-28): VMs up 431 s, rolling back 57.6 s after the apply began (host as before 202 s after the
// run began), move 94 s, second run and --check 78 s, eth1 wire cut 0 of 300 lost, SSH on br-ex 337 s after the power
// cycle began, the runs after it 74 s.
test.serial('nm backend, static address on an 802.1ad (QinQ) VLAN on NM\'s own LACP bond on a VM: rollback exactly, move, idempotent, --check, wire cut, power cycle', async (t) => {
  await nmVlanBondScenario(t, vmLabName('vkvlq'), { dhcp: false, lacp: true, protocol: '802.1ad', cycle: true });
});
