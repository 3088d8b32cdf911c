// VM tier (npm run test:vm), issue 20: the nm backend moves a VLAN on an active-backup bond NetworkManager holds
// under its own profiles (nm-vlan-nmbond.ts: the installer's shape, MCO's profiles; the far end the second VM)
// whose profile has a static IPv4 address and ipv6.method auto, its IPv6 from the RAs the peer sends on the VLAN
// (dnsmasq): NM's own SLAAC, or NM's DHCPv6 lease (RAs saying managed). Each on its own VMs: an injected failure
// rolls back to the VLAN under NM's own profile, the same IPv6 address and RA default route back on it; the move
// keeps the IPv4 address and the IPv6 one (SLAAC: ovs-if-br-ex's eui64 token; DHCPv6: the VLAN's DUID and IAID,
// one lease on the server) and the RA's default route at metric 48 on br-ex, SSH and ping over IPv6 reach it; a
// second run and --check change nothing; cutting the active port (pinged over IPv6) fails over; a power cycle
// brings both addresses back on br-ex and the runs after it change nothing.
import test from 'ava';
import type { V6Kind } from './bond-ipv6-auto.js';
import { injectedFailure, moveIdleFailover, nmVlanBondHost, powerCycle } from './nm-vlan-nmbond.js';

const SCENARIOS: [V6Kind, string, string][] = [
  ['slaac', 'nmv6vb28vsl', 'SLAAC (NM)'],
  ['dhcp6', 'nmv6vb28vd6', 'DHCPv6 with RAs (NM)'],
];

for (const [v6, lab, what] of SCENARIOS) {
  test.serial(`nm backend, ${what} and static IPv4 on a VLAN on NM's own active-backup bond on a VM: rollback, the move keeps the address and RA route, idempotent, --check, failover, power cycle`, async (t) => {
    const started = Date.now();
    const c = await nmVlanBondHost(t, lab, { dhcp: false, v6 });
    await injectedFailure(t, c);
    const onBrEx = await moveIdleFailover(t, c);
    await powerCycle(t, c, onBrEx);
    c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
}
