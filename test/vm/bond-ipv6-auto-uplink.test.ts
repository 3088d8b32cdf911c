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
import { vmLabName } from './lab-name.js';

const SCENARIOS: [V6Kind, string, string, string][] = [
  ['slaac', vmLabName('o6s'), 'fd24:51', 'SLAAC (NM) on an active-backup bond on a VM: rollback, the move keeps the address and RA route'],
  ['dhcp6', vmLabName('o6d'), 'fd24:52', 'DHCPv6 (NM) on an active-backup bond on a VM: rollback, the move keeps the lease and RA route'],
];

// Both passed whole on VMs (roles/configure_ovs/README.md: SLAAC 20.2 min, DHCPv6 21.1 min at load 11-15) once the bridge's
// static IPv4 address went on with its broadcast before networkd took br-ex: without it networkd 252 re-sent the
// address in a loop (100% CPU, "Numerical result out of range") at the apply and at the boot oneshot.
for (const [kind, lab, prefix, title] of SCENARIOS) {
  test.serial(`${title}, idempotent, --check, reboot`, async (t) => {
    t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
    const started = Date.now();
    const l = await vmUplinkLab(t, lab, 3, { hosts: 2, vms: 2 });
    await ipv6AutoBondScenario(t, l, lab, kind, prefix);
    t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
}
