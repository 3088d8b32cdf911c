// The lab's IPv6-only marker on VM hosts: the seed unit leaves eth0 without the lab's IPv4 under it, and
// `lab reboot` finds the marker's address over SSH (at the lab address, then the others known_hosts lists with
// the host's key) before the power cycle. The VM proof: test/vm/lab-ipv6-only.test.ts.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IPV6_ONLY_MARKER, OWN_IPV4_MARKER } from '../../src/lab/network.js';
import { writeSeedUnit } from '../../src/lab/vm/guest-files.js';
import { addressesOfKey } from '../../src/lab/vm/ipv6-only.js';
import { parseIpv6OnlyMarker } from '../../src/lab/network.js';

test('the seed script sets the lab\'s IPv4 address and default route only without either marker (IPv6-only, own IPv4)', async (t) => {
  const tree = mkdtempSync(path.join(tmpdir(), 'hw-seed-'));
  t.teardown(() => rmSync(tree, { recursive: true, force: true }));
  mkdirSync(`${tree}/etc/systemd/system`, { recursive: true }); // as in a rootfs
  await writeSeedUnit(tree);
  const script = readFileSync(`${tree}/usr/local/sbin/hostwire-seed`, 'utf8');
  t.regex(script, new RegExp(`ip link set eth0 up\\n.*\\n\\[ -e ${IPV6_ONLY_MARKER} \\] && exit 0\\n.*\\n\\[ -e ${OWN_IPV4_MARKER} \\] && exit 0\\nip addr replace "\\$HW_ADDR" dev eth0\\nip route replace default via "\\$HW_GW"\\n$`));
  // The identity files are copied before: an IPv6-only host still gets its key and authorized_keys.
  t.true(script.indexOf('cp -a /run/hostwire-seed/files/.') < script.indexOf(IPV6_ONLY_MARKER));
});

test('the addresses to read the marker at: the lab address first, then those known_hosts gives the same key', (t) => {
  const known = ['10.1.2.11 ssh-ed25519 AAAAkey1', '10.1.2.12 ssh-ed25519 AAAAkey2', 'fd21:6::11 ssh-ed25519 AAAAkey1', 'fd21:6::12 ssh-ed25519 AAAAkey2', 'fd21:6::11 ssh-ed25519 AAAAkey1', ''].join('\n');
  t.deepEqual(addressesOfKey(known, '10.1.2.11'), ['10.1.2.11', 'fd21:6::11']);
  t.deepEqual(addressesOfKey(known, '10.1.2.13'), ['10.1.2.13'], 'an unknown host: its lab address only');
});

test('the marker holds one IPv6 address; empty is none; anything else is refused naming the file', (t) => {
  t.is(parseIpv6OnlyMarker('x-1', 'fd21:6::11\n'), 'fd21:6::11');
  t.is(parseIpv6OnlyMarker('x-1', ''), undefined);
  t.throws(() => parseIpv6OnlyMarker('x-1', '10.1.2.3; reboot\n'), { message: /^x-1: \/var\/lib\/hostwire\/lab-ipv6-only does not hold one IPv6 address [^;]*; fix or remove it in the host$/ });
});
