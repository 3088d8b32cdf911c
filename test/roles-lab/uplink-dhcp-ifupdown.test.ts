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
import { IFUPDOWN_STANZA, leaseOnEth0 } from '../helpers/lab-dhcp.js';
import { dhclientHoldsLease, leaseOnBrExAfterBoot, moveKeepsClientId, reverseMoveGivesLeaseBack, rollbackGivesLeaseBack } from '../helpers/lab-ifupdown.js';
import { labHost, rebootLabHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const NAME = testLabName(import.meta.url);

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
  step('dhclient lease on eth0', at);
  const u = await dhclientHoldsLease(t, lease, '/etc/network/interfaces.d/eth0', IFUPDOWN_STANZA);
  const { client, onHost } = lease;

  await rollbackGivesLeaseBack(t, u, 20);
  await moveKeepsClientId(t, u, /^auto eth0\n# hostwire configure_ovs: .* it was: iface eth0 inet dhcp\niface eth0 inet manual\n$/);

  at = Date.now();
  step(`reboot: SSH ${(await rebootLabHost(lab)).toFixed(1)} s after the power cycle began`, at);
  await leaseOnBrExAfterBoot(t, u);
  t.regex(await onHost(client, 'systemctl is-active networking; ifquery --state eth0'), /^active\neth0=eth0\s*$/, 'ifupdown brought eth0 up (manual)');
  t.deepEqual((await lease.role()).changed, [], 'a run after the power cycle changes nothing');

  await reverseMoveGivesLeaseBack(t, u);
});
