// Which uplink shapes the NetworkManager backend moves: each one listed here was proven on a VM or an
// nspawn --nm-ovs host; anything else is refused before a change, naming the ovs backend that does move it.
import { HostwireError } from '../../errors.js';
import type { UplinkConfig } from './env.js';
import type { GatewayState } from './parse.js';
import { uplinkBond } from './uplink-device.js';

/** Bond modes whose failover under NM's bond profile is proven on a VM. */
const NM_BOND_MODES = ['802.3ad', 'active-backup'];

const USE_OVS = 'use backend: ovs (configure_ovs_backend: ovs)';

/** Why the nm backend does not move this uplink yet, or undefined when it does. */
export function nmShapeRefusal(u: UplinkConfig): string | undefined {
  const d = u.device;
  const qinq = qinqRefusal(u);
  if (qinq) return qinq;
  // A VLAN on a NIC and on an active-backup bond with a static address are proven (test/vm/nm-vlan-*-uplink.test.ts),
  // on a kernel-made bond and on one NM holds under its own profile, and a lease on a VLAN on NM's own bond
  // (test/vm/nm-vlan-nmbond-uplink.test.ts) and on a kernel-made one (nm-vlan-kbond-dhcp-uplink.test.ts); on an
  // LACP bond the profiles are the same (the LACP bond itself proven under NM).
  const bond = uplinkBond(u.iface, d);
  if (bond && !NM_BOND_MODES.includes(bond.mode)) {
    return d?.kind === 'bond' ? `is a ${bond.mode} bond; the nm backend moves LACP (802.3ad) and active-backup bonds only so far`
      : `is a VLAN on the ${bond.mode} bond ${bond.name}; the nm backend moves VLANs on LACP (802.3ad) and active-backup bonds only so far`;
  }
  // A kernel-made LACP bond is made again by NM (deleted first): aggregation starts over under the VLAN's IPv6 from
  // RAs, which is drilled on an active-backup one only.
  if (d?.kind === 'vlan' && bond && !d.parentNmConn && u.v6 && bond.mode !== 'active-backup') {
    return `is a VLAN on the kernel-made ${bond.mode} bond ${bond.name} with IPv6 from RAs; the nm backend moves NetworkManager's SLAAC and DHCPv6 on a VLAN on a kernel-made active-backup bond, or on a bond NetworkManager holds under its own profile, only so far`;
  }
  // NM's SLAAC and its DHCPv6 on a VLAN on a bond move as on a bond: ovs-if-br-ex makes the same address from its
  // identifier, or sends the VLAN's DUID and IAID - on a bond NM holds under its own profile (active-backup or LACP;
  // test/vm/nm-vlan-nmbond-ipv6-auto-uplink.test.ts) and on a kernel-made one, which NM makes again under
  // ovs-parent-<bond> (nm-vlan-kbond-ipv6-auto-uplink.test.ts). A lease on a VLAN on a kernel-made bond (under NM's
  // own vlan profile) moves likewise, ovs-if-br-ex taking it with the same client id (01:<VLAN MAC>); through a
  // power cycle too since the boot oneshot keeps the bond NM's autoconnect already runs under ovs-parent-<bond>
  // (deleted there, the ports churned and a boot oneshot took 200 s; nm-device-profiles.ts) -
  // test/vm/nm-vlan-kbond-dhcp-uplink.test.ts. Their IPv6 is refused or not as a NIC's (below).
  // A bond: a DHCP lease and SLAAC/DHCPv6 from RAs on it are moved (test/vm/nm-bond-dhcp-uplink.test.ts,
  // nm-bond-ipv6-auto-uplink.test.ts; on LACP nm-bond-lacp-ipv6-auto-uplink.test.ts): ovs-if-br-ex's IP waits for the bond's carrier, so the ports'
  // activations start before its own (nm-device-profiles.ts); its IPv6 is refused or not as a NIC's (below).
  return ipv6Refusal(u);
}

/**
 * NM >= 1.42 has vlan.protocol (the lab's 1.42.4 too). An 802.1ad VLAN is proven against a QinQ far end on a NIC
 * (test/vm/nm-vlan-nic-uplink.test.ts); with a static address on an active-backup bond NM holds under its own
 * profile (nm-vlan-nmbond-uplink.test.ts), on a kernel-made one NM makes again under ovs-parent-<bond>
 * (nm-vlan-bond-uplink.test.ts) and on NM's own LACP bond (nm-vlan-nmlacp-uplink.test.ts); with a lease on NM's own
 * active-backup bond (nm-vlan-nmbond-uplink.test.ts) - each with rollback, move, failover or wire cut, power cycle.
 * A lease on a kernel-made or an LACP bond, a kernel-made LACP bond and IPv6 from RAs on a bond are not.
 */
function qinqRefusal(u: UplinkConfig): string | undefined {
  const d = u.device;
  if (d?.kind !== 'vlan' || /^802\.1q$/i.test(d.protocol)) return undefined;
  const proven = 'the nm backend moves 802.1ad VLANs on a NIC; on a bond with a static address on an active-backup one (NetworkManager\'s own or kernel-made) and on an LACP (802.3ad) one NetworkManager holds under its own profile, and with a DHCP lease on an active-backup one NetworkManager holds under its own profile, only so far';
  if (!/^802\.1ad$/i.test(d.protocol)) return `is an ${d.protocol} VLAN on ${d.parent}; ${proven}`;
  const bond = uplinkBond(u.iface, d);
  if (!bond) return undefined;
  const nmOwn = Boolean(d.parentNmConn);
  const on = nmOwn ? `the ${bond.mode} bond ${bond.name}` : `the kernel-made ${bond.mode} bond ${bond.name}`;
  const ab = bond.mode === 'active-backup';
  if (!ab && !(nmOwn && bond.mode === '802.3ad')) return `is an 802.1ad (QinQ) VLAN on ${on}; ${proven}`;
  if (u.v6) return `is an 802.1ad (QinQ) VLAN on ${on} with IPv6 from RAs; ${proven}`;
  if (u.method === 'dhcp' && !(ab && nmOwn)) return `is an 802.1ad (QinQ) VLAN on ${on} with a DHCP lease; ${proven}`;
  return undefined;
}

/**
 * What the nm backend moves of dynamic IPv6: NetworkManager's own SLAAC (a profile with ipv6.method auto) with
 * one address, made again on br-ex through its interface identifier, and/or NM's DHCPv6 lease - the RAs asked
 * for it (managed), or there are none (ipv6.method dhcp: the default route is the profile's own route) - taken
 * again with the same DUID and IAID. Several SLAAC addresses and the kernel's SLAAC outside NM are not proven
 * there: refused, naming the ovs backend.
 */
function ipv6Refusal(u: UplinkConfig): string | undefined {
  const v6 = u.v6;
  if (!v6) return undefined;
  const dhcp6 = v6.method === 'dhcp' || Boolean(v6.dhcp6Seen || v6.duid) || v6.iaid !== undefined;
  const why = !u.nmConn ? `the kernel's own ${dhcp6 ? 'DHCPv6' : 'SLAAC'} (no NetworkManager profile)`
    : dhcp6 && (!v6.duid || v6.iaid === undefined) ? 'DHCPv6 whose DUID and IAID NetworkManager does not show'
      : v6.tokens.length > 1 || (!dhcp6 && v6.tokens.length !== 1) ? `${v6.tokens.length} SLAAC addresses (NetworkManager takes one ipv6.token)` : undefined;
  return why && `'s IPv6 comes from ${why}; the nm backend moves static IPv6, NetworkManager's SLAAC (one address) and its DHCPv6 (same DUID and IAID) only so far`;
}

/**
 * A kernel-made parent bond of a VLAN the nm backend would take from others, live before the move: NM makes the
 * bond again under a profile of its own (the kernel's is deleted first), so another device on the bond or an
 * address of the bond's own would go. A bond NM holds under its own profile stays as it is (MCO's shape).
 */
export function nmParentBondRefusal(s: GatewayState, u: UplinkConfig): string | undefined {
  const d = u.device;
  if (d?.kind !== 'vlan' || !d.parentBond || d.parentNmConn) return undefined;
  const others = s.links.filter((l) => l.parent === d.parent && l.name !== u.iface).map((l) => l.name);
  const own = s.links.find((l) => l.name === d.parent)?.addrs.filter((a) => a.scope === 'global').map((a) => `${a.local}/${a.prefixlen}`) ?? [];
  if (others.length || own.length) return `is a VLAN on the bond ${d.parent}, which also carries ${[...others, ...own].join(', ')}; the nm backend makes the bond again under its own profile and would drop ${others.length + own.length > 1 ? 'them' : 'it'}`;
  return undefined;
}

/** True when `version` (NM's, "1.40.16") is older than `want` ([1, 42]). */
export function nmOlderThan(version: string, want: [number, number]): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < want[0] || (major === want[0] && minor < want[1]);
}

/**
 * An 802.1ad VLAN needs vlan.protocol, which nmcli has from 1.42 on: an older one refuses the key only once the
 * move runs (and it rolls back). Refused up front when the probe read an older nmcli.
 */
function nmVersionRefusal(s: GatewayState, u: UplinkConfig): string | undefined {
  const d = u.device;
  if (d?.kind !== 'vlan' || !/^802\.1ad$/i.test(d.protocol) || !s.nm.version || !nmOlderThan(s.nm.version, [1, 42])) return undefined;
  return `is an 802.1ad (QinQ) VLAN on ${d.parent}; NetworkManager ${s.nm.version} has no vlan.protocol (1.42 and later), so its profile cannot say 802.1ad`;
}

/** Refuses, before any change, an uplink the nm backend does not move yet (`s`: the live state, before the move). */
export function assertNmUplinkShape(u: UplinkConfig, s?: GatewayState): void {
  const why = nmShapeRefusal(u) ?? (s ? nmVersionRefusal(s, u) ?? nmParentBondRefusal(s, u) : undefined);
  if (why) throw new HostwireError('bad-input', `ovs_gateway: the uplink ${u.iface}${why.startsWith("'s") ? '' : ' '}${why} - ${USE_OVS}`);
}
