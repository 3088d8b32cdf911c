// configure_ovs (mode uplink, ovs backend) on a DHCP uplink ifupdown's ISC dhclient holds - Debian without
// NetworkManager: `auto eth0` / `iface eth0 inet dhcp`, dhclient -i started by networking.service (lab rootfs with
// isc-dhcp-client and ifupdown; the second lab host serves DHCP). Before: the move left dhclient running on eth0 and
// br-ex asked with another client id (networkd's MAC one); at dhclient's renewal the server NAKed it, dhclient took the
// lease back under its own id onto eth0 (the address on eth0 and br-ex) and networkd's renewals on br-ex were NAKed
// from then on ("lease not found"). Now: br-ex takes the lease with dhclient's own client id (the server's record
// unchanged), dhclient is stopped without a release and the stanza is `inet manual` while eth0 is a port, so after a
// power cycle ifupdown brings eth0 up without a DHCP client; the reverse move puts the stanza back and ifupdown's
// dhclient takes the same lease up on eth0 again.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sleep } from '../../src/lab/run.js';
import { IFUPDOWN_STANZA, leaseOnEth0, moveKeepsLease } from '../helpers/lab-dhcp.js';
import { labHost, rebootLabHost, type LabHost } from '../helpers/lab-host.js';

const NAME = 'dhcl28ifd';
const DHCLIENTS = 'pgrep -a dhclient || true';

test('an ifupdown/dhclient-held DHCP uplink: the same lease and client id on br-ex, no dhclient on the port (also after a power cycle), the lease back on eth0 from the reverse move', async (t) => {
  // Below ava's 5 min inactivity timeout (its own deadline fires first, the teardown runs); room for the first build of
  // the rootfs with the two packages (~1 min on a quiet machine; cached after).
  t.timeout(290_000, `${NAME}: the test's own deadline`);
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${NAME}-`));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  const step = (what: string, since: number) => t.log(`step ${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
  let at = Date.now();
  lab = await labHost(NAME, { hosts: 2, packages: ['isc-dhcp-client', 'ifupdown'] });
  step('lab up', at);
  at = Date.now();
  const lease = await leaseOnEth0(lab.state, dir, {}, 'ifupdown');
  const { client, server, gw, mac, onHost } = lease;
  step('dhclient lease on eth0', at);
  const held = new RegExp(`inet ${client.ip.replaceAll('.', '\\.')}/24 .*dynamic`);
  t.regex(lease.addr, held, 'ifupdown\'s dhclient holds eth0\'s lease');
  t.regex(await onHost(client, DHCLIENTS), /dhclient -4 -v -i -pf \/run\/dhclient\.eth0\.pid .* eth0$/m);
  // dnsmasq's lease file: expiry MAC address name client-id. dhclient -i's id: 0xff, IAID (the MAC's low 4 bytes), DUID.
  const record = async () => (await onHost(server, 'cat /run/hw-dhcp.leases')).trim().split(/\s+/);
  const before = await record();
  t.is(before[1], mac);
  t.true(before[4]!.startsWith(`ff:${mac.split(':').slice(2).join(':')}:00:01:`), `dhclient's RFC 4361 client id (${before[4]})`);

  // `<eof>` after the file: the output's last newline is the file's own.
  const stanzaFile = () => onHost(client, 'cat /etc/network/interfaces.d/eth0; echo "<eof>"');

  // A withheld confirmation (20 s): the rollback gives the lease back to ifupdown's dhclient on eth0.
  at = Date.now();
  const drill = await lease.role({ configure_ovs_confirm: false, configure_ovs_confirm_timeout: 20 });
  step('rollback drill', at);
  t.regex(drill.failed.join('\n'), /rolled back after [\d.]+ s: no confirmation from hostwire within 20 s/);
  t.regex(await onHost(client, 'ip -o -4 addr show dev eth0'), held, 'the lease back on eth0 after the rollback');
  t.regex(await onHost(client, DHCLIENTS), /dhclient -4 -v -i -pf \/run\/dhclient\.eth0\.pid .* eth0$/m, 'ifupdown\'s dhclient on eth0 after the rollback');
  t.is((await stanzaFile()).trimEnd(), `${IFUPDOWN_STANZA}<eof>`, 'the stanza as it was after the rollback');
  t.is((await record())[4], before[4], 'the same client id after the rollback');

  at = Date.now();
  await moveKeepsLease(t, lease);
  step('move', at);
  t.is((await record())[4], before[4], 'the server\'s lease record keeps dhclient\'s client id (networkd on br-ex sent the same)');
  t.is((await onHost(client, DHCLIENTS)).trim(), '', 'no dhclient on the port');
  // networkd's renewal on br-ex is the lease's own (before: NAKed "lease not found" once dhclient's took it back).
  const acks = async () => Number((await onHost(server, 'journalctl -u hw-dhcp --no-pager -o cat | grep -c DHCPACK; true')).trim());
  const acked = await acks();
  await onHost(client, 'networkctl renew br-ex');
  let renewed = acked;
  for (let i = 0; i < 20 && renewed === acked; i++) { await sleep(500); renewed = await acks(); }
  t.true(renewed > acked, 'networkd\'s renewal on br-ex ACKed');
  const stanza = await stanzaFile();
  t.regex(stanza, /^auto eth0\n# hostwire configure_ovs: .* it was: iface eth0 inet dhcp\niface eth0 inet manual\n<eof>\s*$/);
  t.deepEqual((await lease.role()).changed, [], 'a second run changes nothing');

  at = Date.now();
  step(`reboot: SSH ${(await rebootLabHost(lab)).toFixed(1)} s after the power cycle began`, at);
  let addr = '';
  for (let i = 0; i < 60 && !held.test(addr); i++) { if (i) await sleep(1000); addr = await onHost(client, 'ip -o -4 addr show dev br-ex'); }
  step('lease on br-ex after the power cycle', at);
  t.regex(addr, held, 'the lease on br-ex after the power cycle');
  t.is((await onHost(client, DHCLIENTS)).trim(), '', 'ifupdown ran no dhclient on the port at boot');
  t.regex(await onHost(client, 'systemctl is-active networking; ifquery --state eth0'), /^active\neth0=eth0\s*$/, 'ifupdown brought eth0 up (manual)');
  t.is((await onHost(client, 'ip -o -4 addr show dev eth0')).trim(), '', 'eth0 without an address');
  t.is((await record())[4], before[4], 'the same client id after the power cycle');
  t.deepEqual((await lease.role()).changed, [], 'a run after the power cycle changes nothing');

  at = Date.now();
  const out = await onHost(client, 'systemd-run --quiet --wait --collect --unit=hw-restore sh -c "/usr/local/libexec/hostwire/configure-ovs restore br-ex >/run/hw-restore.log 2>&1"; cat /run/hw-restore.log');
  step('reverse move', at);
  addr = '';
  for (let i = 0; i < 30 && !held.test(addr); i++) { if (i) await sleep(1000); addr = await onHost(client, 'ip -o -4 addr show dev eth0'); }
  step('lease back on eth0', at);
  t.regex(addr, held, `the lease back on eth0 (restore: ${out.trim()})`);
  t.regex(await onHost(client, 'ip route show default'), new RegExp(`default via ${gw.replaceAll('.', '\\.')} dev eth0`), 'the lease\'s default route on eth0');
  t.is((await stanzaFile()).trimEnd(), `${IFUPDOWN_STANZA}<eof>`, 'the stanza exactly as it was');
  t.regex(await onHost(client, DHCLIENTS), /dhclient -4 -v -i -pf \/run\/dhclient\.eth0\.pid .* eth0$/m, 'ifupdown\'s dhclient runs on eth0 again');
  t.is((await record())[4], before[4], 'the same client id');
  t.is((await onHost(client, 'ip link show br-ex 2>&1; true')).includes('does not exist'), true, 'br-ex gone');
  t.is((await onHost(server, 'journalctl -u hw-dhcp --no-pager -o cat | grep -c DHCPNAK; true')).trim(), '0', 'the server NAKed no request of either client');
});
