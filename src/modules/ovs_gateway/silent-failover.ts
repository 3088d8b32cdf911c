// An active-backup bond (the uplink, or a VLAN's parent) without IPv6 is refused before the move: under br-ex
// the bond holds no address (br-ex does), so on a failover the bonding driver's peer notification (a gratuitous
// ARP / unsolicited NA for the bond's own addresses) sends nothing, and OVS passes no notification up to br-ex:
// the switch keeps the MAC on the dead port. A kernel booted with ipv6.disable=1, both backends: seen on a VM,
// the ovs backend's bond lost 244 of 300 pings (gap 12.2 s), as the nm backend's bond with its IPv6 turned off
// lost 246. The disable_ipv6 sysctl (/etc/sysctl.d's net.ipv6.conf.all and default = 1, an IPv4-only node): the
// nm backend's move gives its bond alone the link-local back (5 of 300 lost); the ovs backend's leaves the bond
// as it is and br-ex, made then, takes `default` (1): no link-local under br-ex, and on a VM the cut lost 258 of
// 300 (gap 12.9 s) - refused there when the bond (and the VLAN on it) reads 1. An 802.3ad bond needs no such
// word (the switch's aggregate holds the MAC).
import { HostwireError } from '../../errors.js';
import type { UplinkConfig } from './env.js';
import type { GatewayState } from './parse.js';
import { uplinkBond } from './uplink-device.js';

/** Why a move of `u` would fail over silently on this kernel, or undefined. */
export function silentFailoverRefusal(s: GatewayState, u: UplinkConfig, backend: 'ovs' | 'nm'): string | undefined {
  if (s.kernelIpv6) return backend === 'nm' ? nmHeldBondWithoutLinkLocal(s, u) : ovsBondWithIpv6Off(s, u);
  const bond = uplinkBond(u.iface, u.device);
  if (bond?.mode !== 'active-backup') return undefined;
  const sysctl = backend === 'nm' ? ' (to keep the node IPv4-only, set net.ipv6.conf.all.disable_ipv6=1 instead: the move gives the bond alone its link-local back)' : '';
  return `ovs_gateway: the uplink ${u.iface}${bond.name === u.iface ? ' is an' : ' is a VLAN on the'} active-backup bond ${bond.name === u.iface ? '' : `${bond.name} `}and the kernel runs without IPv6 `
    + '(booted with ipv6.disable=1: no /proc/sys/net/ipv6). Under br-ex the bond holds no address and gets no IPv6 link-local, so its failover '
    + 'would tell the switch nothing (no gratuitous ARP, no unsolicited NA) and the switch would keep sending to the dead port. Boot without '
    + `ipv6.disable=1${sysctl}, or use an 802.3ad (LACP) bond`;
}

/**
 * The ovs backend on a kernel with IPv6 whose disable_ipv6 sysctl is 1 on the bond (and on the VLAN on it), as
 * /etc/sysctl.d's net.ipv6.conf.all and default = 1 (an IPv4-only node) leave every device: the move leaves the
 * bond's sysctl as it is (br-ex, made then, takes `default`), so nothing under br-ex holds an address or a
 * link-local and the failover is as silent as without IPv6 in the kernel. The bond or the VLAN with IPv6 on
 * sends its unsolicited NA from br-ex's MAC (the bonding driver's notification reaches the VLANs on it).
 */
function ovsBondWithIpv6Off(s: GatewayState, u: UplinkConfig): string | undefined {
  const bond = uplinkBond(u.iface, u.device);
  if (bond?.mode !== 'active-backup') return undefined;
  const devs = bond.name === u.iface ? [bond.name] : [bond.name, u.iface];
  if (!devs.every((dev) => s.disableIpv6[dev] === true)) return undefined;
  const last = devs.at(-1)!;
  return `ovs_gateway: the uplink ${u.iface}${bond.name === u.iface ? ' is an' : ' is a VLAN on the'} active-backup bond ${bond.name === u.iface ? '' : `${bond.name} `}`
    + `and IPv6 is turned off on ${devs.join(' and ')} (disable_ipv6 1, as net.ipv6.conf.all/default.disable_ipv6=1 leave every device). Under br-ex `
    + `${devs.length > 1 ? 'neither holds an' : 'the bond holds no'} address and the move gives no IPv6 link-local back, so its failover would tell the switch nothing `
    + '(no gratuitous ARP, no unsolicited NA) and the switch would keep sending to the dead port. Give '
    + `${last} its link-local alone (net.ipv6.conf.${last.replace(/\./g, '/')}.disable_ipv6 = 0 and accept_ra = 0 in /etc/sysctl.d, so a boot keeps it), `
    + 'use backend: nm (it gives a kernel-made bond its link-local back), or use an 802.3ad (LACP) bond';
}

/**
 * An active-backup bond NM holds under its own profile, under the VLAN the nm backend moves: the move leaves it as
 * it is (MCO's shape), so it gets no link-local back (nm-device-profiles.ts gives one to a bond it makes). Without
 * one (the profile's ipv6.method disabled, or the disable_ipv6 sysctl) neither the bond nor the VLAN under br-ex
 * holds an address: the same silent failover.
 */
function nmHeldBondWithoutLinkLocal(s: GatewayState, u: UplinkConfig): string | undefined {
  const d = u.device;
  if (d?.kind !== 'vlan' || !d.parentNmConn || uplinkBond(u.iface, d)?.mode !== 'active-backup') return undefined;
  const bond = s.links.find((l) => l.name === d.parent);
  if (!bond || bond.addrs.some((a) => a.family === 'inet6' && a.scope === 'link')) return undefined;
  return `ovs_gateway: the uplink ${u.iface} is a VLAN on the active-backup bond ${d.parent}, which NetworkManager holds under its own profile without an IPv6 link-local `
    + `(ipv6.method disabled, or net.ipv6.conf.${d.parent}.disable_ipv6=1): under br-ex neither the bond nor the VLAN holds an address, so a failover `
    + `would tell the switch nothing and it would keep sending to the dead port. Give ${d.parent}'s profile ipv6.method link-local (or ignore) first`;
}

/** Refuses, before the first move, an uplink whose failover would be silent under br-ex (both backends). */
export function assertFailoverAnnounced(s: GatewayState, u: UplinkConfig, backend: 'ovs' | 'nm'): void {
  const why = silentFailoverRefusal(s, u, backend);
  if (why) throw new HostwireError('bad-input', why);
}
