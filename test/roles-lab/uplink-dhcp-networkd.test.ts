// configure_ovs (mode uplink, ovs backend) on a DHCP uplink no NetworkManager profile holds: systemd-networkd's
// client has eth0's lease (the host's own .network, DHCP=ipv4; NM told to leave eth0 alone), the second lab host
// serves DHCP. The move keeps the lease on br-ex; the reverse move (restore_prev, as a removal runs it) used to give
// eth0 back bare - networkd's client still thought itself bound and only rebinds at T2 (minutes), nothing else
// asked - and the lease was lost. Now the reverse move has networkd take it up again: the same address, dynamic,
// with its default route, back on eth0 within seconds, and NM still leaving eth0 alone. While moved, eth0 (br-ex's
// port) is configured from hostwire's own .network, not the host's: no DHCP client of its own there.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sleep } from '../../src/lab/run.js';
import { leaseOnEth0, moveKeepsLease } from '../helpers/lab-dhcp.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

test('a networkd-held DHCP uplink gets its lease back on eth0 from the reverse move', async (t) => {
  t.timeout(280_000, 'rt27nwd: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-rt27nwd-'));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  const step = (what: string, since: number) => t.log(`step ${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
  let at = Date.now();
  lab = await labHost(testLabName(import.meta.url), { hosts: 2 });
  step('lab up', at);
  at = Date.now();
  const lease = await leaseOnEth0(lab.state, dir, {}, 'networkd');
  const { client, gw, onHost } = lease;
  step('networkd lease on eth0', at);
  const held = new RegExp(`inet ${client.ip.replaceAll('.', '\\.')}/24 .*dynamic`);
  t.regex(lease.addr, held, 'networkd\'s lease on eth0');
  t.regex(await onHost(client, 'networkctl list --no-legend --no-pager eth0'), /eth0 .* configur(ed|ing)$/m);
  t.regex(await onHost(client, 'nmcli -t -f DEVICE,STATE device'), /^eth0:unmanaged$/m);

  at = Date.now();
  await moveKeepsLease(t, lease);
  step('move', at);
  // br-ex's port is no longer configured from the host's .network: hostwire's file leaves it no address and no
  // DHCP client of networkd's (that client renewed, then solicited on a port that hears nothing).
  const port = '/run/systemd/network/00-hostwire-port-eth0.network';
  t.regex(await onHost(client, 'networkctl status --no-pager -n 0 eth0'), new RegExp(`Network File: ${port}\n`));
  await sleep(5000);
  const since = await onHost(client, `journalctl -u systemd-networkd -o cat --no-pager | grep -F eth0: | sed -n '\\|Reconfiguring with ${port}|,$p'`);
  t.regex(since, /Reconfiguring with/);
  t.notRegex(since, /acquired|DHCPv4 address|DHCPDISCOVER|Configuring with \/etc/, `no DHCP on the port after the move:\n${since}`);
  t.regex(await onHost(lease.server, 'cat /run/hw-dhcp.leases'), new RegExp(`${lease.mac} ${client.ip.replaceAll('.', '\\.')} `), 'the server still holds the lease (br-ex\'s)');

  at = Date.now();
  const out = await onHost(client, 'systemd-run --quiet --wait --collect --unit=hw-restore sh -c "/usr/local/libexec/hostwire/configure-ovs restore br-ex >/run/hw-restore.log 2>&1"; cat /run/hw-restore.log');
  step('reverse move', at);
  let addr = '';
  for (let i = 0; i < 30 && !held.test(addr); i++) { if (i) await sleep(1000); addr = await onHost(client, 'ip -o -4 addr show dev eth0'); }
  step('lease back on eth0', at);
  t.regex(addr, held, `the lease back on eth0 (restore: ${out.trim()})`);
  t.regex(await onHost(client, 'ip route show default'), new RegExp(`default via ${gw.replaceAll('.', '\\.')} dev eth0 proto dhcp`), 'the lease\'s default route on eth0');
  t.is((await onHost(client, 'ip link show br-ex 2>&1; true')).includes('does not exist'), true, 'br-ex gone');
  t.regex(await onHost(client, 'nmcli -t -f DEVICE,STATE device'), /^eth0:unmanaged$/m, 'NM still leaves eth0 alone (no second DHCP client)');
  t.regex(await onHost(client, 'networkctl list --no-legend --no-pager eth0'), /eth0 .* configur(ed|ing)$/m);
  t.regex(await onHost(client, 'networkctl status --no-pager -n 0 eth0'), /Network File: \/etc\/systemd\/network\/20-lab-eth0\.network\n/, 'the host\'s own .network again');
  t.is((await onHost(client, 'ls /run/systemd/network')).trim(), '', 'hostwire\'s .network files for br-ex and its port gone');
});
