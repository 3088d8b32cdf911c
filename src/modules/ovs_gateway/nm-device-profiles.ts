// The nm backend's ovs-if-phys0 for a bond uplink, as MCO's configure-ovs builds it: a `bond` profile that
// is the slave of ovs-port-phys0 (the same mode and options as the live bond, its MTU, the bond's MAC
// cloned), and each port NIC a bond-slave profile naming the bond by UUID. NM refuses ipv4/ipv6 settings on
// a bond under an ovs-port ("'ipv4' not among [connection, bond, 802-3-ethernet ...]", seen on a VM host),
// so the profile has none; nor on a VLAN under it. A VLAN uplink is a `vlan` profile under the port (parent
// and id as the live VLAN's, its MAC cloned). A VLAN on a bond NM holds under its own profile (an installer's):
// MCO's shape - the bond, its ports and their profiles stay as they are, the vlan profile names the bond as its
// parent. A VLAN on a kernel-made bond: the bond gets a profile of its own beside OVS (ovs-parent-<bond>, as MCO
// leaves a VLAN's bond its own profile), made and up with its ports first.
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { BridgeEnv } from './env.js';
import type { BondSpec } from './uplink-device.js';
import { nmLog, nmUp } from './nm-background.js';
import { nmUuid } from './nm-uuid.js';

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

/** The profile name of a VLAN's parent bond (not an OVS port: the VLAN is). */
export const nmParentName = (bond: string) => `ovs-parent-${bond}`;

/** Profile names beyond MCO's five that the uplink's device brings (the bond's ports; a VLAN's parent bond and its ports). */
export function nmDeviceExtraNames(e: BridgeEnv): string[] {
  const d = e.device;
  if (d?.kind === 'vlan' && d.parentBond && !d.parentNmConn) return [nmParentName(d.parent), ...d.parentBond.members.map(nmSlaveName)];
  return d?.kind === 'bond' ? d.members.map(nmSlaveName) : [];
}

/** Each port NIC of a bond: a bond-slave profile naming the bond's profile by UUID. */
function portProfiles(members: string[], master: string, mtu: number, uuid: (name: string) => string): string[][] {
  return members.map((m) => ['type', '802-3-ethernet', 'con-name', nmSlaveName(m), 'connection.uuid', uuid(nmSlaveName(m)), 'connection.interface-name', m,
    'connection.master', master, 'connection.slave-type', 'bond', 'connection.autoconnect-priority', '100', '802-3-ethernet.mtu', String(mtu)]);
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
    // 802.1ad: NM's vlan.protocol (NM >= 1.42; an older nmcli is refused before the move, nm-uplink-shape.ts). 802.1Q
    // is NM's default, left unset as before (MCO's profile has none).
    const qinq = /^802\.1ad$/i.test(d.protocol);
    if (!qinq && !/^802\.1q$/i.test(d.protocol)) throw new HostwireError('bad-input', `ovs_gateway: VLAN ${e.uplink} is ${d.protocol}; the nm backend moves 802.1Q and 802.1ad VLANs only - use backend: ovs (configure_ovs_backend: ovs)`);
    const vlan = ['type', 'vlan', ...own, 'vlan.parent', d.parent, 'vlan.id', String(d.id), ...(qinq ? ['vlan.protocol', '802.1ad'] : []), ...wired];
    // A bond NM holds under its own profile stays so (MCO's shape: the vlan profile's parent is the bond).
    if (!d.parentBond || d.parentNmConn) return [vlan];
    // The parent bond beside OVS: no IPv4, IPv6 left to the kernel (its link-local, written back once the
    // ports are up: the failover's NA), the live bond's mode and options, the VLAN's MTU and MAC (as the
    // ovs backend's make_bond gives the bond the recorded MAC).
    const parent = nmParentName(d.parent);
    return [
      ['type', 'bond', 'con-name', parent, 'connection.uuid', uuid(parent), 'connection.interface-name', d.parent, 'connection.autoconnect-priority', '100',
        'bond.options', nmBondOptions(d.parent, d.parentBond), 'ipv4.method', 'disabled', 'ipv6.method', 'ignore', ...wired],
      ...portProfiles(d.parentBond.members, uuid(parent), e.mtu, uuid),
      vlan,
    ];
  }
  return [['type', 'bond', ...own, 'bond.options', nmBondOptions(e.uplink, d), ...wired], ...portProfiles(d.members, uuid(ifPhys), e.mtu, uuid)];
}

/**
 * Before the activation: a kernel-made bond is deleted so that NM makes it from the profile (activating the
 * profile on the live bond failed on a VM host: NM re-wrote its options while the ports were still in it,
 * "unable to set option because the bond device has slaves", and the ports went to NM's auto DHCP profiles);
 * its ports, often unmanaged (`nmcli device set ... managed no`, as on the lab's bonded host), are handed to
 * NM (runtime only), whose autoconnect then takes our port profiles (priority 100). At boot (the profiles are in
 * /run: the oneshot adds them again) NM's autoconnect may run the bond under ovs-if-phys0 and its ports before
 * the oneshot gets here: that bond is NM's own, kept (held; see nmDevicePhysUp and nmDeviceSlaves).
 */
export function nmDevicePrepare(e: BridgeEnv, ifPhys: string, vlanNmConn?: string): string[] {
  const d = e.device;
  // A kernel-made VLAN likewise: NM makes it on the same parent with the recorded MAC.
  const vlan = `if [ -e /proc/net/vlan/${shellJoin([e.uplink])} ]; then ip link delete dev ${shellJoin([e.uplink])}; fi`;
  if (d?.kind === 'vlan' && d.parentNmConn) {
    // On NM's own bond nothing of the bond's changes; a VLAN NM holds under its own profile is not deleted but
    // taken over by ovs-if-phys0's activation, as MCO's is (deleted, NM's autoconnect of its old profile could
    // race ours to make it again).
    return vlanNmConn ? [] : [vlan];
  }
  if (d?.kind === 'vlan') return d.parentBond ? parentBondUp(d.parent, d.parentBond.members, vlan) : [vlan];
  if (d?.kind !== 'bond') return [];
  return [heldBy(e.uplink, ifPhys), `[ $held = 1 ] || { ${bondDelete(e.uplink)}; }`, ...portsManaged(d.members)];
}

/** The shell words of profile `c`'s state (activating, activated, ...; empty when not active). */
const state = (c: string) => `"$(nmcli -g GENERAL.STATE connection show ${shellJoin([c])} 2>/dev/null)"`;

/**
 * held=1 (said so) when NM runs `dev` under our profile `con` already, activating or activated - at boot, where
 * the oneshot adds the profiles again from /run and NM's autoconnect takes them at once: deleting that device
 * and activating it and its ports again made NM release and re-enslave the ports (issue 20). At the move the
 * kernel's bond is never under our profile.
 */
function heldBy(dev: string, con: string): string {
  const held = `[ "$(nmcli -g GENERAL.CON-UUID device show ${shellJoin([dev])} 2>/dev/null)" = ${nmUuid(con)} ]`;
  return `held=0; if ${held}; then case ${state(con)} in activat*) held=1; echo ${shellJoin([`NetworkManager runs ${dev} under ${con} already`])} ;; esac; fi`;
}

const bondDelete = (bond: string) => `if [ -d /sys/class/net/${shellJoin([bond])}/bonding ]; then ip link delete dev ${shellJoin([bond])}; fi`;
const portsManaged = (members: string[]) => members.map((m) => `${shellJoin(['nmcli', 'device', 'set', m, 'managed', 'yes'])} 2>/dev/null || true`);

/**
 * A VLAN's parent bond up under its own profile before the VLAN's: the kernel's bond deleted, NM's made and up
 * (no IP: it needs no port), then its ports handed to NM and up under their profiles, then the bond's
 * link-local back (see nmDeviceLinkLocal). Seen on a VM host: with the bond's activation in the background and
 * the ports handed over first, a port's activation failed ("A dependency of the connection failed") as NM's
 * autoconnect and ours raced for the bond; a port is tried again (3 times) as the rollback's nm_ports_back does.
 * At boot (the profiles are in /run: the oneshot adds them again) NM's autoconnect runs ovs-parent-<bond> and
 * its ports as soon as they are added, and the VLAN's own profile takes the VLAN on that bond with its lease:
 * deleting that bond then, and activating the bond and a port NM runs already, made NM release and re-enslave
 * the ports and a port's activation fail, the boot oneshot 200 s on a VM (issue 20). So a bond NM already runs
 * under ovs-parent-<bond> is kept with the VLAN on it (ovs-if-phys0's activation takes a VLAN over, as on NM's
 * own bond), and a port already active under its profile is not activated again.
 */
function parentBondUp(bond: string, members: string[], vlanDelete: string): string[] {
  const parent = nmParentName(bond);
  return [
    heldBy(bond, parent),
    `[ $held = 1 ] || { ${vlanDelete}; }`,
    `[ $held = 1 ] || { ${bondDelete(bond)}; }`,
    `[ $held = 1 ] || ${nmUp(parent)}`,
    ...portsManaged(members),
    ...members.map((m) => `i=0; until [ ${state(nmSlaveName(m))} = activated ] || ${nmUp(nmSlaveName(m))}; do i=$((i+1)); [ $i -lt 3 ] || exit 1; sleep 1; done`),
    ...linkLocalBack(bond),
  ];
}

/** The bond's IPv6 link-local back (also where the host disabled IPv6: the bond alone, RAs ignored first). */
const linkLocalBack = (bond: string): string[] => {
  const conf = (key: string) => shellJoin([`/proc/sys/net/ipv6/conf/${bond}/${key}`]);
  const genMode = conf('addr_gen_mode');
  return [
    `if [ "$(cat ${conf('disable_ipv6')} 2>/dev/null)" = 1 ]; then echo 0 >${conf('accept_ra')} && echo 0 >${conf('disable_ipv6')}; fi`,
    `if [ -e ${genMode} ]; then echo 0 >${genMode}; fi`,
  ];
};

/** Waits (up to `s` s) while NM activates profile `c` already: activated again, a bond's port is released from it. */
const whileActivating = (c: string, s: number) => `i=0; while [ ${state(c)} = activating ] && [ $i -lt ${s} ]; do i=$((i+1)); sleep 1; done`;

/**
 * The bond's ports' activations, one after the other in one background job started once the bridge exists
 * and before ovs-if-br-ex's (MCO's configure-ovs activates the ports first too): a bond made by NM from its
 * profile starts without ports (deleting the live one left them administratively down), so it has no carrier,
 * and a DHCP address on br-ex waited for one in vain - NM's autoconnect of the ports came within 5 s on one VM
 * run and not within NM's 45 s DHCP timeout on the next ("IP configuration could not be reserved"); activating
 * the bond does not activate its ports. That job only gets them going (its result is not the move's): on a VM
 * ours of ovs-slave-eth1 ended "The base network connection was interrupted" (NM's device-disconnected:
 * another activation, NM's autoconnect at priority 100, took the device) with eth1 in the bond all the same
 * and br-ex's lease taken. So `settle`, after ovs-if-br-ex, activates in the foreground (failing the move)
 * only a port profile not active by then. The ports join in whichever order their activations end. A port NM
 * activates already (its autoconnect: at boot, issue 20) is left to it: the job skips it, `settle` waits for it.
 */
export function nmDeviceSlaves(e: BridgeEnv): { log: string; start: string; settle: string[] } | undefined {
  if (e.device?.kind !== 'bond') return undefined;
  const names = e.device.members.map(nmSlaveName);
  const log = nmLog(`${e.bridge}-ports`);
  const up = (c: string) => `case ${state(c)} in activat*) ;; *) ${nmUp(c)} ;; esac`;
  return {
    log,
    start: `{ ${names.map(up).join('; ')}; } >${log} 2>&1 & ports=$!`,
    settle: ['wait $ports || true', ...names.flatMap((c) => [whileActivating(c, 60), `[ ${state(c)} = activated ] || ${nmUp(c)} || { cat ${log}; rm -f ${log}; exit 1; }`]), `rm -f ${log}`],
  };
}

/**
 * ovs-if-phys0's activation for a bond uplink (undefined: the plain `nmcli connection up`): where NM runs the
 * bond under it already (held, at boot) it is not activated again - that would take the bond down with its
 * ports - but waited for (it completes once ovs-if-br-ex is up), and activated only if it did not get there.
 */
export function nmDevicePhysUp(e: BridgeEnv, ifPhys: string): string | undefined {
  if (e.device?.kind !== 'bond') return undefined;
  return `{ if [ $held = 1 ]; then ${whileActivating(ifPhys, 90)}; fi; [ $held = 1 ] && [ ${state(ifPhys)} = activated ] || ${nmUp(ifPhys)}; }`;
}

/**
 * Once the ports are up: the bond's IPv6 link-local back. NM gives a port no IP at all (addr_gen_mode none),
 * but the bonding driver's only word to the far end on a failover is a gratuitous ARP / unsolicited NA for the
 * bond's own addresses: without one, an active-backup bond under br-ex failed over silently and a switch kept
 * the MAC on the dead port (VM, one end of the active port's wire cut: 248 of 300 pings lost, 12.4 s and not
 * back; with the link-local 1-5 lost, as the kernel-made bond of the ovs backend has it). eui64: the kernel's
 * default, from the bond's MAC.
 */
export function nmDeviceLinkLocal(e: BridgeEnv): string[] {
  if (e.device?.kind !== 'bond') return [];
  return linkLocalBack(e.uplink);
}
