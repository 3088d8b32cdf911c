// VM tier (npm run test:vm), issue 20: the nm backend (NetworkManager's OVS profiles) moves an active-backup
// bond0 (eth1+eth2, made by NM profiles, IPv4 static) whose IPv6 comes from the lab's second VM sending RAs
// (dnsmasq): SLAAC (NM's own, a stable-privacy identifier) and DHCPv6 (RAs saying managed, NM's client holding
// the lease). Each: an injected failure rolls back exactly (NM's view too), the move keeps the same IPv6 address
// and the RA's default route on br-ex, SSH and ping over IPv6 reach it, eth1's cut fails over, a second run and
// --check change nothing, a power cycle keeps it (nm-bond-ipv6-auto.ts).
import test from 'ava';
import { type VmUplinkLab, vmUplinkLab } from './bond-lab.js';
import type { V6Kind } from './bond-ipv6-auto.js';
import { nmIpv6AutoBondScenario } from './nm-bond-ipv6-auto.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const SCENARIOS: [V6Kind, string, string, string][] = [
  ['slaac', vmLabName('b6nmslaac'), 'fd26:61', 'SLAAC (NM) on an active-backup bond'],
  ['dhcp6', vmLabName('b6nmdhcp6'), 'fd26:62', 'DHCPv6 with RAs (NM) on an active-backup bond'],
];

for (const [kind, lab, prefix, what] of SCENARIOS) {
  test.serial(`nm backend, ${what} on a VM: rollback exactly, the move keeps the address and RA route, failover, idempotent, reboot`, async (t) => {
    t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
    const started = Date.now();
    const base = await vmUplinkLab(t, lab, 3, { hosts: 2, vms: 2, nmOvs: true });
    const l: VmUplinkLab = { ...base, role: (vars = {}, check = false) => base.role({ configure_ovs_backend: 'nm', ...vars }, check) };
    await nmIpv6AutoBondScenario(t, l, lab, kind, prefix);
    t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
}
