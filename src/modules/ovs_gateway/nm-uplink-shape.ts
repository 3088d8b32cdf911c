// Which uplink shapes the NetworkManager backend moves: each one listed here was proven on a VM or an
// nspawn --nm-ovs host; anything else is refused before a change, naming the ovs backend that does move it.
import { HostwireError } from '../../errors.js';
import type { UplinkConfig } from './env.js';

/** Bond modes whose failover under NM's bond profile is proven on a VM. */
const NM_BOND_MODES = ['802.3ad', 'active-backup'];

const USE_OVS = 'use backend: ovs (configure_ovs_backend: ovs)';

/** Why the nm backend does not move this uplink yet, or undefined when it does. */
export function nmShapeRefusal(u: UplinkConfig): string | undefined {
  const d = u.device;
  // A VLAN on a NIC is proven (test/vm/nm-vlan-nic-uplink.test.ts); a VLAN on a bond is not.
  if (d?.kind === 'vlan' && d.parentBond) return `is a VLAN on the bond ${d.parent}; the nm backend moves NICs, LACP and active-backup bonds and VLANs on a NIC only so far`;
  if (d?.kind === 'bond') {
    const mode = d.options[1] ?? '';
    if (!NM_BOND_MODES.includes(mode)) return `is a ${mode} bond; the nm backend moves LACP (802.3ad) and active-backup bonds only so far`;
    // A dynamic address on a bond waited for a carrier while ovs-if-br-ex activated, before the ports'
    // profiles were up: on a VM NM's 45 s DHCP timeout failed the move (rolled back).
    if (u.method === 'dhcp' || u.v6) return `is a bond with a ${u.method === 'dhcp' ? 'DHCP' : 'SLAAC/DHCPv6'} address; the nm backend moves bonds with static addresses only so far (its br-ex profile waited for the lease before the bond's ports were up)`;
  }
  return ipv6Refusal(u);
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
  const dhcp6 = v6.method === 'dhcp' || Boolean(v6.duid) || v6.iaid !== undefined;
  const why = !u.nmConn ? `the kernel's own ${dhcp6 ? 'DHCPv6' : 'SLAAC'} (no NetworkManager profile)`
    : dhcp6 && (!v6.duid || v6.iaid === undefined) ? 'DHCPv6 whose DUID and IAID NetworkManager does not show'
      : v6.tokens.length > 1 || (!dhcp6 && v6.tokens.length !== 1) ? `${v6.tokens.length} SLAAC addresses (NetworkManager takes one ipv6.token)` : undefined;
  return why && `'s IPv6 comes from ${why}; the nm backend moves static IPv6, NetworkManager's SLAAC (one address) and its DHCPv6 (same DUID and IAID) only so far`;
}

/** Refuses, before any change, an uplink the nm backend does not move yet. */
export function assertNmUplinkShape(u: UplinkConfig): void {
  const why = nmShapeRefusal(u);
  if (why) throw new HostwireError('bad-input', `ovs_gateway: the uplink ${u.iface}${why.startsWith("'s") ? '' : ' '}${why} - ${USE_OVS}`);
}
