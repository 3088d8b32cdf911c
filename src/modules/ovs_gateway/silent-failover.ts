// An active-backup bond (the uplink, or a VLAN's parent) on a kernel without IPv6 (booted with ipv6.disable=1)
// is refused before the move, on both backends: under br-ex the bond holds no address (br-ex does) and gets no
// IPv6 link-local, so on a failover the bonding driver's peer notification (a gratuitous ARP / unsolicited NA for
// the bond's own addresses) sends nothing, and OVS passes no notification up to br-ex: the switch keeps the MAC
// on the dead port. Seen on a VM booted so: the ovs backend's bond lost 244 of 300 pings (gap 12.2 s), as the
// nm backend's bond with its IPv6 turned off lost 246. The disable_ipv6 sysctl is another matter on the nm
// backend: the move gives its bond alone the link-local back. An 802.3ad bond needs no such word (the switch's
// aggregate holds the MAC).
import { HostwireError } from '../../errors.js';
import type { UplinkConfig } from './env.js';
import type { GatewayState } from './parse.js';

/** Why a move of `u` would fail over silently on this kernel, or undefined. */
export function silentFailoverRefusal(s: GatewayState, u: UplinkConfig, backend: 'ovs' | 'nm'): string | undefined {
  if (s.kernelIpv6) return backend === 'nm' ? nmHeldBondWithoutLinkLocal(s, u) : undefined;
  const d = u.device;
  const bond = d?.kind === 'bond' ? { name: u.iface, mode: d.options[1] } : d?.kind === 'vlan' && d.parentBond ? { name: d.parent, mode: d.parentBond.options[1] } : undefined;
  if (bond?.mode !== 'active-backup') return undefined;
  const sysctl = backend === 'nm' ? ' (to keep the node IPv4-only, set net.ipv6.conf.all.disable_ipv6=1 instead: the move gives the bond alone its link-local back)' : '';
  return `ovs_gateway: the uplink ${u.iface}${bond.name === u.iface ? ' is an' : ' is a VLAN on the'} active-backup bond ${bond.name === u.iface ? '' : `${bond.name} `}and the kernel runs without IPv6 `
    + '(booted with ipv6.disable=1: no /proc/sys/net/ipv6). Under br-ex the bond holds no address and gets no IPv6 link-local, so its failover '
    + 'would tell the switch nothing (no gratuitous ARP, no unsolicited NA) and the switch would keep sending to the dead port. Boot without '
    + `ipv6.disable=1${sysctl}, or use an 802.3ad (LACP) bond`;
}

/**
 * An active-backup bond NM holds under its own profile, under the VLAN the nm backend moves: the move leaves it as
 * it is (MCO's shape), so it gets no link-local back (nm-device-profiles.ts gives one to a bond it makes). Without
 * one (the profile's ipv6.method disabled, or the disable_ipv6 sysctl) neither the bond nor the VLAN under br-ex
 * holds an address: the same silent failover.
 */
function nmHeldBondWithoutLinkLocal(s: GatewayState, u: UplinkConfig): string | undefined {
  const d = u.device;
  if (d?.kind !== 'vlan' || !d.parentNmConn || d.parentBond?.options[1] !== 'active-backup') return undefined;
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
