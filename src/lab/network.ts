// Lab wiring: a private namespace holding a bridge, and per host a namespace whose eth0 is a veth
// into that bridge. Every `ip` call names a lab namespace; the machine's own namespace is never touched.
import { constants } from 'node:fs';
import { access, open, realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { isIPv6 } from 'node:net';
import { BadInputError } from '../errors.js';
import { run } from './run.js';
import type { HostState, LabState } from './state.js';

const ip = (args: string[]): Promise<unknown> => run('ip', args);

/** Names from `ip netns list` ("name" or "name (id: 3)" per line). */
export function parseNetnsList(text: string): string[] {
  return text.split('\n').map((l) => l.trim().split(' ')[0]!).filter(Boolean);
}

export async function netnsList(): Promise<string[]> {
  return parseNetnsList((await run('ip', ['netns', 'list'], { check: false })).stdout);
}

export async function createLabNetwork(state: LabState): Promise<void> {
  const ns = state.netns;
  await ip(['netns', 'add', ns]);
  await ip(['-n', ns, 'link', 'set', 'lo', 'up']);
  await ip(['-n', ns, 'link', 'add', state.bridge, 'type', 'bridge']);
  await ip(['-n', ns, 'addr', 'add', `${state.subnet.gateway}/24`, 'dev', state.bridge]);
  await ip(['-n', ns, 'link', 'set', state.bridge, 'up']);
}

/**
 * The host's namespace with eth0 configured before boot (address + default route). NetworkManager
 * in the host sees eth0 as "connected (externally)" and leaves it alone.
 */
/** Returns false when tx offload could not be turned off (no ethtool in the rootfs). `ipv4` false: eth0 only up. */
export async function createHostNetwork(state: LabState, host: HostState, rootfs: string, ipv4 = true): Promise<boolean> {
  await ip(['netns', 'add', host.netns]);
  await ip(['-n', host.netns, 'link', 'set', 'lo', 'up']);
  // Both ends are created directly inside their namespaces.
  // eth0 keeps one MAC for the host's life (like a real NIC) so a power cycle does not change it.
  await ip(['link', 'add', host.veth, 'netns', state.netns, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.netns, 'address', hostMac(host.ip)]);
  await ip(['-n', state.netns, 'link', 'set', host.veth, 'master', state.bridge]);
  await ip(['-n', state.netns, 'link', 'set', host.veth, 'up']);
  if (ipv4) await ip(['-n', host.netns, 'addr', 'add', `${host.ip}/24`, 'dev', 'eth0']);
  await ip(['-n', host.netns, 'link', 'set', 'eth0', 'up']);
  if (ipv4) await ip(['-n', host.netns, 'route', 'add', 'default', 'via', state.subnet.gateway]);
  return disableTxOffload(state.netns, host.veth, rootfs);
}

/** A locally administered MAC from the host's address: 0a:58 + the four octets (as OVN-K derives pod MACs). */
export function hostMac(ip: string): string {
  return ['0a', '58', ...ip.split('.').map((o) => Number(o).toString(16).padStart(2, '0'))].join(':');
}

/**
 * An IPv6-only host (its lab IPv4 address dropped, e.g. an NM profile with ipv4.method disabled) writes the
 * IPv6 address it answers SSH at into this file: a power cycle then brings eth0 up without the lab's IPv4
 * address and default route (they would come back beside the host's own configuration), and `lab reboot`
 * waits for the host at that address (the caller's known_hosts must name it). VM hosts too: their seed unit
 * (vm/guest-files.ts) leaves eth0 without IPv4 under the marker, read over SSH before the cycle (vm/ipv6-only.ts).
 */
export const IPV6_ONLY_MARKER = '/var/lib/hostwire/lab-ipv6-only';

/**
 * A VM host whose own configuration gives eth0 the lab's IPv4 address (a DHCP client taking the lab address as
 * its reserved lease, as an installer's `iface eth0 inet dhcp` does) has this file (empty): its seed unit
 * (vm/guest-files.ts) brings eth0 up without an address at boot, so the address is the client's lease (a seeded
 * one first would stay beside it, static). `lab reboot` waits at the lab address as usual.
 */
export const OWN_IPV4_MARKER = '/var/lib/hostwire/lab-own-ipv4';

/** The address in the host's IPV6_ONLY_MARKER (read from its overlay's upper dir), or undefined without one. */
export async function ipv6OnlyAddress(host: HostState): Promise<string | undefined> {
  const text = await readGuestFile(`${host.dir}/upper`, IPV6_ONLY_MARKER, MARKER_MAX_BYTES);
  return text === undefined ? undefined : parseIpv6OnlyMarker(host.name, text);
}

/** How much of the marker is read: an address and a newline, with room to spare. */
export const MARKER_MAX_BYTES = 128;

/** The marker's text -> its IPv6 address (undefined: empty). The guest wrote it: named, never echoed. */
export function parseIpv6OnlyMarker(host: string, text: string): string | undefined {
  const addr = text.trim();
  if (!addr) return undefined;
  if (!isIPv6(addr)) throw new BadInputError(`${host}: ${IPV6_ONLY_MARKER} does not hold one IPv6 address (the one the host answers SSH at); fix or remove it in the host`);
  return addr;
}

/**
 * A small file the guest may have written into its overlay, read as root: no symlink anywhere under `root`
 * (realpath of its folder must stay where it is named, the file itself opened O_NOFOLLOW), a regular file,
 * at most `max` bytes. undefined when it is absent or any of that does not hold.
 */
async function readGuestFile(root: string, path: string, max: number): Promise<string | undefined> {
  const folder = `${root}${dirname(path)}`;
  const real = await realpath(folder).catch(() => undefined);
  if (real === undefined || real !== `${await realpath(root)}${dirname(path)}`) return undefined;
  const fh = await open(`${folder}/${basename(path)}`, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!fh) return undefined;
  try {
    if (!(await fh.stat()).isFile()) return undefined;
    const buf = Buffer.alloc(max);
    const { bytesRead } = await fh.read(buf, 0, max, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/**
 * A power cycle resets the NIC: the host's namespace (links, addresses, routes, nftables, per-namespace
 * sysctls) is made anew with only eth0 as `lab up` left it (`ipv4` false: eth0 without its address). The old
 * lab-side veth dies with its peer.
 */
export async function resetHostNetwork(state: LabState, host: HostState, rootfs: string, ipv4 = true): Promise<void> {
  await deleteNetns(host.netns);
  let gone = false;
  for (let i = 0; i < 50 && !gone; i++) {
    gone = (await run('ip', ['-n', state.netns, 'link', 'show', host.veth], { check: false })).code !== 0;
    if (!gone) await new Promise((r) => setTimeout(r, 100));
  }
  // The kernel tears a namespace down asynchronously (slow under load): remove the old veth ourselves.
  if (!gone) await run('ip', ['-n', state.netns, 'link', 'del', host.veth], { check: false });
  await createHostNetwork(state, host, rootfs, ipv4);
}

/**
 * Frames a kernel sends into an OVS netdev port must not carry partial checksums or GSO (lab notes),
 * so tx offload goes off on the lab-side veth. The controller may lack ethtool: use the rootfs's.
 */
export async function disableTxOffload(netns: string, dev: string, rootfs: string): Promise<boolean> {
  const ethtool = `${rootfs}/usr/sbin/ethtool`;
  if (!(await access(ethtool).then(() => true, () => false))) return false;
  const r = await run('ip', ['netns', 'exec', netns, 'chroot', rootfs, '/usr/sbin/ethtool', '-K', dev, 'tx', 'off'], { check: false });
  return r.code === 0;
}

export async function deleteNetns(name: string): Promise<void> {
  await run('ip', ['netns', 'del', name], { check: false });
}
