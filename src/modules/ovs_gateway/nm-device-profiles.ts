// The nm backend's ovs-if-phys0 for a bond uplink, as MCO's configure-ovs builds it: a `bond` profile that
// is the slave of ovs-port-phys0 (the same mode and options as the live bond, its MTU, the bond's MAC
// cloned), and each port NIC a bond-slave profile naming the bond by UUID. NM refuses ipv4/ipv6 settings on
// a bond under an ovs-port ("'ipv4' not among [connection, bond, 802-3-ethernet ...]", seen on a VM host),
// so the profile has none; nor on a VLAN under it. A VLAN uplink is a `vlan` profile under the port (parent
// and id as the live VLAN's, its MAC cloned).
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { BridgeEnv } from './env.js';
import type { BondSpec } from './uplink-device.js';

/** `ip link add type bond` option -> NM's bond.options key (where they differ). */
const NM_BOND_KEY: Record<string, string> = { peer_notify_delay: 'peer_notif_delay' };

/** The bond's `ip link add` words (mode first, then options) as NM's `bond.options` text. */
export function nmBondOptions(bond: string, spec: BondSpec): string {
  const out: string[] = [];
  for (let i = 0; i + 1 < spec.options.length; i += 2) {
    const key = spec.options[i]!;
    // arp_ip_target's list syntax differs between ip and NM: not carried over unproven.
    if (key === 'arp_ip_target') throw new HostwireError('bad-input', `ovs_gateway: bond ${bond} uses arp_ip_target; the nm backend does not carry ARP monitoring targets over yet - use backend: ovs (configure_ovs_backend: ovs)`);
    out.push(`${NM_BOND_KEY[key] ?? key}=${spec.options[i + 1]!}`);
  }
  return out.join(',');
}

/** The profile name of a bond port NIC moved with the bond. */
export const nmSlaveName = (member: string) => `ovs-slave-${member}`;

/** Profile names beyond MCO's five that the uplink's device brings (the bond's ports). */
export function nmDeviceExtraNames(e: BridgeEnv): string[] {
  return e.device?.kind === 'bond' ? e.device.members.map(nmSlaveName) : [];
}

/**
 * The `connection add` word lists for ovs-if-phys0 when the uplink is a bond or a VLAN (undefined: a NIC,
 * planned as before). `uuid` gives a profile's fixed UUID; `portPhys` is ovs-port-phys0's UUID. A VLAN's
 * parent (a NIC or a bond) is not moved: it stays as it is, the VLAN profile names it.
 */
export function nmDeviceProfiles(e: BridgeEnv, ifPhys: string, portPhys: string, uuid: (name: string) => string): string[][] | undefined {
  const d = e.device;
  if (!d || d.kind === 'nic') return undefined;
  const own = ['con-name', ifPhys, 'connection.uuid', uuid(ifPhys), 'connection.interface-name', e.uplink, 'connection.master', portPhys,
    'connection.slave-type', 'ovs-port', 'connection.autoconnect-priority', '100'];
  const wired = ['802-3-ethernet.mtu', String(e.mtu), '802-3-ethernet.cloned-mac-address', e.mac];
  if (d.kind === 'vlan') {
    if (!/^802\.1q$/i.test(d.protocol)) throw new HostwireError('bad-input', `ovs_gateway: VLAN ${e.uplink} is ${d.protocol}; the nm backend moves 802.1Q VLANs only - use backend: ovs (configure_ovs_backend: ovs)`);
    return [['type', 'vlan', ...own, 'vlan.parent', d.parent, 'vlan.id', String(d.id), ...wired]];
  }
  return [
    ['type', 'bond', ...own, 'bond.options', nmBondOptions(e.uplink, d), ...wired],
    ...d.members.map((m) => ['type', '802-3-ethernet', 'con-name', nmSlaveName(m), 'connection.uuid', uuid(nmSlaveName(m)), 'connection.interface-name', m,
      'connection.master', uuid(ifPhys), 'connection.slave-type', 'bond', 'connection.autoconnect-priority', '100', '802-3-ethernet.mtu', String(e.mtu)]),
  ];
}

/**
 * Before the activation: a kernel-made bond is deleted so that NM makes it from the profile (activating the
 * profile on the live bond failed on a VM host: NM re-wrote its options while the ports were still in it,
 * "unable to set option because the bond device has slaves", and the ports went to NM's auto DHCP profiles);
 * its ports, often unmanaged (`nmcli device set ... managed no`, as on the lab's bonded host), are handed to
 * NM (runtime only), whose autoconnect then takes our port profiles (priority 100).
 */
export function nmDevicePrepare(e: BridgeEnv): string[] {
  // A kernel-made VLAN likewise: NM makes it on the same parent with the recorded MAC.
  if (e.device?.kind === 'vlan') return [`if [ -e /proc/net/vlan/${shellJoin([e.uplink])} ]; then ip link delete dev ${shellJoin([e.uplink])}; fi`];
  if (e.device?.kind !== 'bond') return [];
  const bond = shellJoin([e.uplink]);
  return [
    `if [ -d /sys/class/net/${bond}/bonding ]; then ip link delete dev ${bond}; fi`,
    ...e.device.members.map((d) => `${shellJoin(['nmcli', 'device', 'set', d, 'managed', 'yes'])} 2>/dev/null || true`),
  ];
}

/**
 * After the bond is up under the port: its ports' profiles (each waits for its master), then the bond's
 * IPv6 link-local back. NM gives a port no IP at all (addr_gen_mode none), but the bonding driver's only word to
 * the far end on a failover is a gratuitous ARP / unsolicited NA for the bond's own addresses: without one,
 * an active-backup bond under br-ex failed over silently and a switch kept the MAC on the dead port (VM, one
 * end of the active port's wire cut: 248 of 300 pings lost, 12.4 s and not back; with the link-local 1-5 lost,
 * as the kernel-made bond of the ovs backend has it). eui64: the kernel's default, from the bond's MAC.
 * On a host with IPv6 disabled (disable_ipv6 1, the bond made with it) there is no link-local to make, so the
 * bond alone gets IPv6 back without router advertisements (accept_ra 0 first): the link-local and nothing else.
 */
export function nmDeviceSlavesUp(e: BridgeEnv): string[] {
  if (e.device?.kind !== 'bond') return [];
  const conf = (key: string) => shellJoin([`/proc/sys/net/ipv6/conf/${e.uplink}/${key}`]);
  const genMode = conf('addr_gen_mode');
  return [
    ...e.device.members.map((m) => shellJoin(['nmcli', '--wait', '60', 'connection', 'up', nmSlaveName(m)])),
    `if [ "$(cat ${conf('disable_ipv6')} 2>/dev/null)" = 1 ]; then echo 0 >${conf('accept_ra')} && echo 0 >${conf('disable_ipv6')}; fi`,
    `if [ -e ${genMode} ]; then echo 0 >${genMode}; fi`,
  ];
}
