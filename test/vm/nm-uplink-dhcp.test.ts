// configure_ovs (mode uplink) on a DHCP uplink with the nm backend, for real: both lab hosts run NM with its
// OVS plugin (`lab up --nm-ovs`); the second serves DHCP (dnsmasq, the first host's MAC reserved to its lab
// address), the first host's eth0 takes its lease through a NetworkManager profile. A withheld confirmation
// gives eth0 its lease back through that profile (NM holds it as before, no ovs-* profile left); the move
// keeps the lease on br-ex through NM's ovs-if-br-ex (DHCP client id = the NIC's MAC, which br-ex has):
// same address, default route metric 48, SSH on it; a second run and --check change nothing. In the VM tier
// (npm run test:vm): the first build of NM with OVS takes ~6 min per machine.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { leaseOnEth0, moveKeepsLease, rollbackKeepsLease } from '../helpers/lab-dhcp.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';

test('nm backend, DHCP uplink: the lease comes back on a rollback and moves onto NM\'s ovs-if-br-ex', async (t) => {
  // The first build of NM with OVS (minutes, once per machine) comes before the lab is up.
  t.timeout(1_500_000, 'nmodh: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-nmodh-'));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  lab = await labHost('nmodh', { hosts: 2, nmOvs: true });
  t.timeout(300_000, 'nmodh: the test\'s own deadline once the lab is up');
  const { state } = lab;
  const lease = await leaseOnEth0(state, dir, { configure_ovs_backend: 'nm' });
  const { client, mac, onHost, role } = lease;
  await rollbackKeepsLease(t, lease);
  t.notRegex(await onHost(client, 'nmcli -t -f NAME connection show'), /ovs-/);

  await moveKeepsLease(t, lease);
  t.regex(await onHost(client, 'nmcli -t -f NAME,DEVICE connection show --active'), /^ovs-if-br-ex:br-ex$/m);
  t.regex(await onHost(client, 'nmcli -t -f NAME,DEVICE connection show --active'), /^ovs-if-phys0:eth0$/m);
  t.is((await onHost(client, 'cat /sys/class/net/br-ex/address')).trim(), mac, 'br-ex has the NIC MAC (the DHCP client id)');
  t.deepEqual((await role()).changed, [], 'second run');
  const checked = await role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
});
