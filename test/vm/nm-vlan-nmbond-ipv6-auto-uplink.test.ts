// VM tier (npm run test:vm), issue 20: the nm backend moves a VLAN on a bond NetworkManager holds under its own
// profiles (nm-vlan-nmbond.ts: the installer's shape, MCO's profiles) - active-backup (the far end the second VM)
// or LACP (802.3ad, lacp_rate fast, layer3+4; wired to the switch VM of lacp-lab.ts, whose bond0.100 is the far
// end) - whose profile has a static IPv4 address and ipv6.method auto, its IPv6 from the RAs the far end sends on
// the VLAN (dnsmasq): NM's own SLAAC, or NM's DHCPv6 lease (RAs saying managed). Each on its own VMs: an injected
// failure rolls back to the VLAN under NM's own profile, the same IPv6 address and RA default route back on it
// (LACP: aggregated with the switch again); the move keeps the IPv4 address and the IPv6 one (SLAAC: ovs-if-br-ex's
// eui64 token; DHCPv6: the VLAN's DUID and IAID, one lease on the server) and the RA's default route at metric 48
// on br-ex, SSH and ping over IPv6 reach it; a second run and --check change nothing; a port's cable cut (pinged
// over IPv6; AB: the active port fails over, LACP: the wire cut at both ends) is carried by the other; a power
// cycle brings both addresses back on br-ex and the runs after it change nothing. LACP SLAAC passed whole (25.0 min
// at load 6-16: rollback 51.6 s after the apply, move 89 s, second run and --check 48 s, wire cut 0 of 300 lost,
// SSH on br-ex 364 s after the power cycle began, runs after it 52 s); LACP DHCPv6 passed whole (13.7 min at load
// 1-6: rollback 25.2 s after the apply, move 30 s, second run and --check 21 s, wire cut 0 of 300 lost, the lease
// on br-ex 233 s after the power cycle began, runs after it 23 s).
import test from 'ava';
import type { V6Kind } from './bond-ipv6-auto.js';
import { nmVlanBondScenario } from './nm-vlan-nmbond.js';
import { vmLabName } from './lab-name.js';

// [kind, LACP, lab, what]
const SCENARIOS: [V6Kind, boolean, string, string][] = [
  ['slaac', false, 'nmv6vb28vsl', 'SLAAC (NM) and static IPv4 on a VLAN on NM\'s own active-backup bond'],
  ['dhcp6', false, 'nmv6vb28vd6', 'DHCPv6 with RAs (NM) and static IPv4 on a VLAN on NM\'s own active-backup bond'],
  ['slaac', true, 'nmv6vl29vsl', 'SLAAC (NM) and static IPv4 on a VLAN on NM\'s own LACP bond'],
  ['dhcp6', true, 'nmv6vl29vd6', 'DHCPv6 with RAs (NM) and static IPv4 on a VLAN on NM\'s own LACP bond'],
];

for (const [v6, lacp, lab, what] of SCENARIOS) {
  test.serial(`nm backend, ${what} on a VM: rollback, the move keeps the address and RA route, idempotent, --check, ${lacp ? 'wire cut' : 'failover'}, power cycle`, async (t) => {
    await nmVlanBondScenario(t, vmLabName(lab), { dhcp: false, lacp, v6, cycle: true });
  });
}
