// VM tier (npm run test:vm), issue 20: DHCP on an LACP bond (NM profiles; the switch VM of lacp-lab.ts leases
// the address; bond-dhcp.ts): rollback, the move keeps the lease, idempotent, --check, a wire cut, reboot, idle
// after it. Its own file: after the static LACP scenario (25 min at load ~18) it outlived the VM tier's 30 min.
import test from 'ava';
import { dhcpBondScenario } from './bond-dhcp.js';
import { assertLacpPartner, lacpSwitchLab, wireCutDrill } from './lacp-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const DHCP_LAB = vmLabName(import.meta.url);

test.serial('DHCP on an LACP bond (NM profiles; the switch VM leases the address) on a VM: rollback, the move keeps the lease, idempotent, --check, a wire cut, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const lab = await lacpSwitchLab(t, DHCP_LAB);
  await dhcpBondScenario(t, lab.l, {
    lab: DHCP_LAB, nmOptions: 'mode=802.3ad,lacp_rate=fast,miimon=100,xmit_hash_policy=layer3+4',
    bond: /Bonding Mode: IEEE 802\.3ad Dynamic link aggregation\nTransmit Hash Policy: layer3\+4[\s\S]*LACP rate: fast/,
    failover: async () => {
      await assertLacpPartner(t, lab);
      await wireCutDrill(t, lab, DHCP_LAB);
    },
  });
  await assertLacpPartner(t, lab, ' after the reboot');
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
