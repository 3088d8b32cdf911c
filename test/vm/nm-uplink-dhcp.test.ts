// configure_ovs (mode uplink) on a DHCP uplink with the nm backend, for real: both lab hosts run NM with its
// OVS plugin (`lab up --nm-ovs`); the second serves DHCP (dnsmasq, the first host's MAC reserved to its lab
// address), the first host's eth0 takes its lease through a NetworkManager profile. A withheld confirmation
// gives eth0 its lease back through that profile (NM holds it as before, no ovs-* profile left); the move
// keeps the lease on br-ex through NM's ovs-if-br-ex (DHCP client id = the NIC's MAC, which br-ex has):
// same address, default route metric 48, SSH on it; a second run and --check change nothing; after `lab reboot`
// the boot oneshot makes the same profiles and br-ex takes the same lease again. In the VM tier
// (npm run test:vm): the first build of NM with OVS takes ~6 min per machine.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labReboot } from '../../src/lab/index.js';
import { sleep } from '../../src/lab/run.js';
import { leaseOnEth0, moveKeepsLease, rollbackKeepsLease } from '../helpers/lab-dhcp.js';
import { ACTIVE_PROFILES } from '../helpers/nm-backend.js';
import { esc } from './bond-lab.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { vmLabName } from './lab-name.js';

test('nm backend, DHCP uplink: the lease comes back on a rollback, moves onto NM\'s ovs-if-br-ex and is there again after a reboot', async (t) => {
  // The first build of NM with OVS (minutes, once per machine) comes before the lab is up.
  t.timeout(1_500_000, 'vmnmdhcp: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-vmnmdhcp-'));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  lab = await labHost(vmLabName(import.meta.url), { hosts: 2, nmOvs: true });
  t.timeout(420_000, 'vmnmdhcp: the test\'s own deadline once the lab is up');
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

  // The profiles live in /run: after a power cycle (eth0 seeded with its lab address again, dhcp0 in /etc) the
  // boot oneshot makes them again and br-ex takes the same lease.
  const profiles = await onHost(client, ACTIVE_PROFILES);
  const leases = await onHost(lease.server, 'cut -d" " -f2- /run/hw-dhcp.leases');
  const booted = Date.now();
  await labReboot(client.name, { name: state.name, timeoutMs: 120_000 });
  let brEx = '';
  for (let i = 0; i < 60 && !/ dynamic /.test(brEx); i++) { if (i) await sleep(1000); brEx = await onHost(client, 'ip -o -4 addr show dev br-ex').catch(() => ''); }
  t.log(`reboot: the lease on br-ex ${((Date.now() - booted) / 1000).toFixed(1)} s after the power cycle began`);
  t.regex(brEx, new RegExp(`inet ${esc(client.ip)}/24 .*dynamic`), 'the same lease on br-ex after the reboot');
  t.is(await onHost(client, ACTIVE_PROFILES), profiles, 'the same five profiles active');
  t.regex(await onHost(client, 'ip route show default'), new RegExp(`^default via ${esc(lease.gw)} dev br-ex .*metric 48`, 'm'));
  t.is((await onHost(client, 'ip -o -4 addr show dev eth0')).trim(), '', 'eth0 without its seeded address');
  t.is(await onHost(lease.server, 'cut -d" " -f2- /run/hw-dhcp.leases'), leases, 'the server holds the one lease it had');
  t.deepEqual((await role()).changed, [], 'a run after the reboot');
});
