// VM tier (npm run test:vm), issue 20: an active-backup bond (NM profiles, eth1+eth2) whose IPv6 comes from a
// router - the lab's second VM sending RAs with dnsmasq - moves onto br-ex on the kernel datapath with the ovs
// backend: SLAAC (NM's own, a stable-privacy identifier) and DHCPv6 (NM's client holding the lease). Each: an
// injected failure rolls back exactly, the move keeps the same IPv6 address and the RA's default route (metric
// 48) on br-ex, SSH and ping over IPv6 reach it, a second run and --check change nothing, a power cycle keeps it
// (bond-ipv6-auto.ts).
import test from 'ava';
import { vmUplinkLab } from './bond-lab.js';
import { ipv6AutoBondScenario, type V6Kind } from './bond-ipv6-auto.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';

const SCENARIOS: [V6Kind, string, string, string][] = [
  ['slaac', 'v6vm24s', 'fd24:51', 'SLAAC (NM) on an active-backup bond on a VM: rollback, the move keeps the address and RA route'],
  ['dhcp6', 'v6vm24d', 'fd24:52', 'DHCPv6 (NM) on an active-backup bond on a VM: rollback, the move keeps the lease and RA route'],
];

// Kept failing (issue 20, roles/configure_ovs/README.md): SLAAC's first run rolled back and moved, but after the
// reboot networkd on br-ex failed ("Numerical result out of range") while the router's RA lifetimes ran down (the
// router's accept_ra is 0 since); its second and third runs hung networkd at 100% CPU on br-ex at the first apply
// (killed by its watchdog; the apply failed and rolled back). DHCPv6 has not run yet. Remove `.failing` once both pass.
for (const [kind, lab, prefix, title] of SCENARIOS) {
  test.serial.failing(`${title}, idempotent, --check, reboot`, async (t) => {
    t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
    const started = Date.now();
    const l = await vmUplinkLab(t, lab, 3, { hosts: 2, vms: 2 });
    await ipv6AutoBondScenario(t, l, lab, kind, prefix);
    t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
}
