// configure_ovs (mode uplink) on a DHCP uplink, for real: the second lab host serves DHCP (dnsmasq, the
// first host's MAC reserved to its lab address), the first host's eth0 takes its lease through a
// NetworkManager profile. A withheld confirmation gives eth0 its lease back through that profile; the move
// keeps the lease on br-ex (networkd's DHCP client with the NIC's MAC: same address, SSH on it); a second run
// and --check change nothing.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { leaseOnEth0, moveKeepsLease, rollbackKeepsLease } from '../helpers/lab-dhcp.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';

test('a DHCP uplink keeps its lease through the rollback and the move', async (t) => {
  t.timeout(280_000, 'vmx23vd: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-vmx23vd-'));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  lab = await labHost('vmx23vd', { hosts: 2 });
  const { state } = lab;
  const lease = await leaseOnEth0(state, dir);
  const { role } = lease;
  await rollbackKeepsLease(t, lease);

  await moveKeepsLease(t, lease);
  t.deepEqual((await role()).changed, [], 'second run');
  const checked = await role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
});
