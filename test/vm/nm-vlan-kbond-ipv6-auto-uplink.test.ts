// VM tier (npm run test:vm), issue 20: the nm backend moves NetworkManager's SLAAC and its DHCPv6 (RAs saying
// managed) on a VLAN on a KERNEL-made bond - bond0 = eth1+eth2 active-backup (miimon 100, updelay 200, primary eth1)
// made with ip, its ports unmanaged by NM, and bond0.100 under NM's own vlan profile (static IPv4, ipv6.method auto;
// vlan-lab.ts vlanTheHost kernelBond), the far end (the second VM) the VLAN's IPv6 router (dnsmasq's RAs every 10 s).
// NM makes the bond again under ovs-parent-bond0 (the VLAN's MAC), its ports under ovs-slave-*, the VLAN under
// ovs-if-phys0, and ovs-if-br-ex makes the same address (SLAAC: eui64 with the address's identifier as token;
// DHCPv6: the VLAN's DUID and IAID, one lease on the server). Each on its own VMs (nm-vlan-nmbond.ts's drills): an
// injected failure rolls back to the kernel's bond, the VLAN with the same IPv6 address and RA default route under
// its own profile, the ports unmanaged again; the move keeps both addresses and the RA's default route at metric 48
// on br-ex, SSH and ping over IPv6 reach it; a second run and --check change nothing; cutting the active port fails
// over (pinged over IPv6); a power cycle brings both addresses back on br-ex and the runs after it change nothing.
// SLAAC passed whole (18.8 min at load 5-11: rollback 84.4 s after the apply, move 89 s, second run and --check
// 63 s, eth1 cut 1 of 300 IPv6 pings lost (gap 0.05 s), SSH on br-ex 133 s after the power cycle began, runs after
// it 50 s); DHCPv6 passed whole (20.3 min at load 6-14: rollback 59.4 s after the apply, move 61 s, second run and
// --check 104 s, eth1 cut 3 of 300 lost (gap 0.15 s), SSH on br-ex 132 s after the power cycle began, runs after
// it 73 s).
import test from 'ava';
import type { V6Kind } from './bond-ipv6-auto.js';
import { nmVlanBondScenario } from './nm-vlan-nmbond.js';
import { vmLabName } from './lab-name.js';

// [kind, lab, what]
const SCENARIOS: [V6Kind, string, string][] = [
  ['slaac', 'nmv6kbsl', 'SLAAC (NM) and static IPv4 on a VLAN on a kernel-made active-backup bond'],
  ['dhcp6', 'nmv6kbd6', 'DHCPv6 with RAs (NM) and static IPv4 on a VLAN on a kernel-made active-backup bond'],
];

for (const [v6, lab, what] of SCENARIOS) {
  test.serial(`nm backend, ${what} on a VM: rollback, the move keeps the address and RA route, idempotent, --check, failover, power cycle`, async (t) => {
    await nmVlanBondScenario(t, vmLabName(lab), { dhcp: false, kernelBond: true, v6, cycle: true });
  });
}
