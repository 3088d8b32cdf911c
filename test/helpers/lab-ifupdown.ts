// The steps of the configure_ovs scenarios on a DHCP uplink ifupdown's ISC dhclient holds, shared by the nspawn
// one (`auto eth0`: networking.service's `ifup -a` starts dhclient) and the VM one (`allow-hotplug eth0`: udev's
// hotplug event starts ifup@eth0.service at boot): the lease and stanza back after a rollback, the move keeping
// dhclient's client id on br-ex, the lease on br-ex after a power cycle, the reverse move giving it back to dhclient.
import type { ExecutionContext } from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sleep } from '../../src/lab/run.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { moveKeepsLease, type DhcpLease } from './lab-dhcp.js';

export const DHCLIENTS = 'pgrep -a dhclient || true';
/** ifupdown's dhclient on eth0 (`dhclient -4 -v -i -pf /run/dhclient.eth0.pid -lf ... eth0`). */
export const IFUPDOWN_DHCLIENT = /dhclient -4 -v -i -pf \/run\/dhclient\.eth0\.pid .* eth0$/m;

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `file`'s whole text: the command runner trims its output, `<eof>` keeps the file's last newline. */
export const readWhole = async (d: DhcpLease, file: string): Promise<string> =>
  (await d.onHost(d.client, `cat ${file} && echo "<eof>"`)).trimEnd().replace(/<eof>$/, '');

export interface IfupdownUplink {
  lease: DhcpLease;
  /** eth0's lease as `ip -o -4 addr` shows it: the lab address, dynamic. */
  held: RegExp;
  /** The file holding eth0's stanza, and its whole text as the test wrote it. */
  file: string;
  text: string;
  /** dnsmasq's record of the lease: expiry MAC address name client-id. */
  record(): Promise<string[]>;
  /** The client id ifupdown's dhclient sent, as the server recorded it. */
  clientId: string;
  /** The file's whole text. */
  readFile(): Promise<string>;
}

/** eth0 holds the lease through ifupdown's dhclient, with its RFC 4361 client id; `file` reads `text`. */
export async function dhclientHoldsLease(t: ExecutionContext, lease: DhcpLease, file: string, text: string): Promise<IfupdownUplink> {
  const { client, server, mac, onHost } = lease;
  const held = new RegExp(`inet ${esc(client.ip)}/24 .*dynamic`);
  t.regex(lease.addr, held, 'ifupdown\'s dhclient holds eth0\'s lease');
  t.regex(await onHost(client, DHCLIENTS), IFUPDOWN_DHCLIENT);
  const record = async () => (await onHost(server, 'cat /run/hw-dhcp.leases')).trim().split(/\s+/);
  const before = await record();
  t.is(before[1], mac);
  // dhclient -i's id: 0xff, IAID (the MAC's low 4 bytes), DUID.
  t.true(before[4]!.startsWith(`ff:${mac.split(':').slice(2).join(':')}:00:01:`), `dhclient's RFC 4361 client id (${before[4]})`);
  const readFile = () => readWhole(lease, file);
  t.is(await readFile(), text, `${file} as written`);
  return { lease, held, file, text, record, clientId: before[4]!, readFile };
}

/** A withheld confirmation (`window` s): the rollback gives the lease back to ifupdown's dhclient, the stanza as it was. */
export async function rollbackGivesLeaseBack(t: ExecutionContext, u: IfupdownUplink, window: number): Promise<void> {
  const { client, onHost } = u.lease;
  const at = Date.now();
  const drill = await u.lease.role({ configure_ovs_confirm: false, configure_ovs_confirm_timeout: window });
  t.log(`rollback drill: ${((Date.now() - at) / 1000).toFixed(1)} s`);
  t.regex(drill.failed.join('\n'), new RegExp(`rolled back after [\\d.]+ s: no confirmation from hostwire within ${window} s`));
  t.regex(await onHost(client, 'ip -o -4 addr show dev eth0'), u.held, 'the lease back on eth0 after the rollback');
  t.regex(await onHost(client, DHCLIENTS), IFUPDOWN_DHCLIENT, 'ifupdown\'s dhclient on eth0 after the rollback');
  t.is(await u.readFile(), u.text, 'the stanza as it was after the rollback');
  t.is((await u.record())[4], u.clientId, 'the same client id after the rollback');
}

/**
 * The move: the same lease on br-ex with dhclient's client id (networkd's renewal ACKed), no dhclient, the stanza
 * `manual` (the file then reads `moved`); a second run and --check change nothing.
 */
export async function moveKeepsClientId(t: ExecutionContext, u: IfupdownUplink, moved: RegExp): Promise<void> {
  const { client, server, onHost } = u.lease;
  await moveKeepsLease(t, u.lease);
  t.is((await u.record())[4], u.clientId, 'the server\'s lease record keeps dhclient\'s client id (networkd on br-ex sent the same)');
  t.is((await onHost(client, DHCLIENTS)).trim(), '', 'no dhclient on the port');
  // networkd's renewal on br-ex is the lease's own (before: NAKed "lease not found" once dhclient's took it back).
  const acks = async () => Number((await onHost(server, 'journalctl -u hw-dhcp --no-pager -o cat | grep -c DHCPACK; true')).trim());
  const acked = await acks();
  await onHost(client, 'networkctl renew br-ex');
  let renewed = acked;
  for (let i = 0; i < 60 && renewed === acked; i++) { await sleep(500); renewed = await acks(); }
  t.true(renewed > acked, 'networkd\'s renewal on br-ex ACKed');
  t.regex(await u.readFile(), moved);
  t.deepEqual((await u.lease.role()).changed, [], 'a second run changes nothing');
  const checked = await u.lease.role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check changes nothing');
  // HW_RECORD_DIR keeps the moved host's probe (networkd's default route on br-ex carries the lease as src).
  const out = process.env.HW_RECORD_DIR;
  if (out) {
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'ifupdown-dhcp-moved.txt'), await onHost(client, GATEWAY_PROBE));
  }
}

/** After a power cycle (SSH answering): the lease on br-ex within `limitMs`, no dhclient, eth0 bare, the same client id. */
export async function leaseOnBrExAfterBoot(t: ExecutionContext, u: IfupdownUplink, limitMs = 60_000): Promise<void> {
  const { client, onHost } = u.lease;
  const at = Date.now();
  let addr = '';
  for (const until = Date.now() + limitMs; !u.held.test(addr) && Date.now() < until;) {
    addr = await onHost(client, 'ip -o -4 addr show dev br-ex').catch(() => '');
    if (!u.held.test(addr)) await sleep(1000);
  }
  t.log(`lease on br-ex ${((Date.now() - at) / 1000).toFixed(1)} s after SSH answered`);
  t.regex(addr, u.held, 'the lease on br-ex after the power cycle');
  t.is((await onHost(client, DHCLIENTS)).trim(), '', 'ifupdown ran no dhclient on the port at boot');
  t.is((await onHost(client, 'ip -o -4 addr show dev eth0')).trim(), '', 'eth0 without an address');
  t.is((await u.record())[4], u.clientId, 'the same client id after the power cycle');
}

/**
 * The reverse move (`configure-ovs restore br-ex`, as the role's removal runs it): the lease back on eth0 under
 * ifupdown's dhclient with its default route, the file exactly as written, br-ex gone, no NAK from the server.
 */
export async function reverseMoveGivesLeaseBack(t: ExecutionContext, u: IfupdownUplink, limitMs = 30_000): Promise<void> {
  const { client, server, gw, onHost } = u.lease;
  const at = Date.now();
  const out = await onHost(client, 'systemd-run --quiet --wait --collect --unit=hw-restore sh -c "/usr/local/libexec/hostwire/configure-ovs restore br-ex >/run/hw-restore.log 2>&1"; cat /run/hw-restore.log');
  t.log(`reverse move: ${((Date.now() - at) / 1000).toFixed(1)} s`);
  let addr = '';
  for (const until = Date.now() + limitMs; !u.held.test(addr) && Date.now() < until;) {
    addr = await onHost(client, 'ip -o -4 addr show dev eth0');
    if (!u.held.test(addr)) await sleep(1000);
  }
  t.log(`lease back on eth0: ${((Date.now() - at) / 1000).toFixed(1)} s after the reverse move began`);
  t.regex(addr, u.held, `the lease back on eth0 (restore: ${out.trim()})`);
  t.regex(await onHost(client, 'ip route show default'), new RegExp(`default via ${esc(gw)} dev eth0`), 'the lease\'s default route on eth0');
  t.is(await u.readFile(), u.text, 'the stanza exactly as it was');
  t.regex(await onHost(client, DHCLIENTS), IFUPDOWN_DHCLIENT, 'ifupdown\'s dhclient runs on eth0 again');
  t.is((await u.record())[4], u.clientId, 'the same client id');
  t.is((await onHost(client, 'ip link show br-ex 2>&1; true')).includes('does not exist'), true, 'br-ex gone');
  t.is((await onHost(server, 'journalctl -u hw-dhcp --no-pager -o cat | grep -c DHCPNAK; true')).trim(), '0', 'the server NAKed no request of either client');
}
