// VM tier (npm run test:vm), issue 20: the nm backend moves an LACP bond0 (802.3ad, lacp_rate fast,
// xmit_hash_policy layer3+4, eth1+eth2 made by NM profiles, IPv4 static) whose IPv6 comes from RAs: the second
// VM is both the switch (its own LACP bond over the two wires, bridged to the lab bridge, lacp-lab.ts) and the
// router (dnsmasq on its eth0: SLAAC, or DHCPv6 with RAs saying managed). The scenario of the active-backup bond
// (nm-bond-ipv6-auto.ts) with the LACP drills: the partner live before and after the rollback, the move, the wire
// cut (at both ends, pinged over IPv6) and the power cycle; NM's bond profile with the live bond's options.
import test from 'ava';
import type { VmUplinkLab } from './bond-lab.js';
import type { V6Kind } from './bond-ipv6-auto.js';
import { lacpSwitchLab } from './lacp-lab.js';
import { lacpV6Bond, nmIpv6AutoBondScenario } from './nm-bond-ipv6-auto.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const SCENARIOS: [V6Kind, string, string, string][] = [
  ['slaac', vmLabName('l6lsl'), 'fd26:63', 'SLAAC (NM) on an LACP bond'],
  ['dhcp6', vmLabName('l6ldh'), 'fd26:64', 'DHCPv6 with RAs (NM) on an LACP bond'],
];

for (const [kind, lab, prefix, what] of SCENARIOS) {
  test.serial(`nm backend, ${what} on a VM: rollback exactly, the move keeps the address, RA route and partner, wire cut, idempotent, reboot`, async (t) => {
    t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
    const started = Date.now();
    const lacp = await lacpSwitchLab(t, lab, { nmOvs: true });
    const l: VmUplinkLab = { ...lacp.l, role: (vars = {}, check = false) => lacp.l.role({ configure_ovs_backend: 'nm', ...vars }, check) };
    await nmIpv6AutoBondScenario(t, l, lab, kind, prefix, lacpV6Bond({ ...lacp, l }));
    t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
}
