// Pure checks of the uplink move against the probed host, before anything on the host changes:
// a bad bridge name, uplink, MTU or gateway must be refused here, not discovered half-way
// through the transaction (where add-br on `lo` once moved the node's address onto loopback).
import { HostwireError } from '../../errors.js';
import type { OvsGatewayArgs } from './args.js';
import type { GatewayState } from './parse.js';
import type { UplinkConfig } from './env.js';
import { physicalPort } from './choose-uplink.js';

const bad = (message: string) => new HostwireError('bad-input', `ovs_gateway: ${message}`);

/** The bridge (br-ex or br-ex1) may be new or an OVS bridge, never another kind of link. */
export function assertBridgeName(s: GatewayState, bridge: string, what: string): void {
  const link = s.links.find((l) => l.name === bridge);
  if (!link || s.bridges.some((b) => b.name === bridge)) return;
  const kind = link.linkType === 'loopback' ? 'the loopback device' : `an existing ${link.kind ?? link.linkType ?? 'network'} link${link.addrs.some((a) => a.scope === 'global') ? ' with addresses' : ''}`;
  throw bad(`${what} ${bridge} is ${kind}, not an OVS bridge: name a new bridge (like br-ex); moving the uplink onto it would strand the host`);
}

/** The uplink the move takes: an Ethernet NIC, not one of the bridges, able to carry the MTU. */
export function assertUplink(s: GatewayState, a: OvsGatewayArgs, uplink: string): void {
  if (uplink === a.bridge || uplink === a.extra_bridge) throw bad(`the uplink ${uplink} is one of the OVS bridges (${a.bridge}, ${a.extra_bridge})`);
  const link = s.links.find((l) => l.name === uplink);
  if (!link) return; // uplinkConfig names the missing device
  if (link.linkType === 'loopback') throw bad(`the uplink ${uplink} is the loopback device`);
  if (a.mtu !== undefined && link.maxMtu !== undefined && a.mtu > link.maxMtu) {
    throw bad(`mtu ${a.mtu} is above ${uplink}'s maximum (${link.maxMtu})`);
  }
}

/** A device name as the host's script, ip, ovs-vsctl and nmcli take it: never read as an option (no leading '-'). */
const DEVICE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.@+-]{0,14}$/;

/**
 * The devices a move names come from the host (its links, a saved .prev): Linux allows a name like `-h0`, which
 * ovs-vsctl or nmcli would take as an option. Refused before anything changes.
 */
export function assertDeviceNames(u: UplinkConfig): void {
  const d = u.device;
  const names = [u.iface, ...(d?.kind === 'bond' ? d.members : d?.kind === 'vlan' ? [d.parent, ...(d.parentBond?.members ?? [])] : [])];
  const name = names.find((n) => !DEVICE_NAME.test(n));
  if (name !== undefined) {
    throw bad(`the device ${JSON.stringify(name.slice(0, 40))} (of the uplink ${JSON.stringify(u.iface.slice(0, 40))}) has no plain interface name (letters, digits, _ . @ + -, not starting with -): rename it before the move`);
  }
}

/** A gateway or check target that is one of the host's own addresses answers itself: no proof at all. */
export function assertRemoteTargets(s: GatewayState, a: OvsGatewayArgs): void {
  const own = new Set(s.links.flatMap((l) => l.addrs.map((x) => x.local)));
  for (const [what, ip] of [['gateway', a.gateway], ...(a.check_targets ?? []).map((c) => ['check_targets', c])] as const) {
    if (ip && own.has(ip)) throw bad(`${what} ${ip} is an address of this host: it would answer its own check`);
  }
}

/**
 * A bridge that already carries an uplink takes no second one: the apply would add the newly chosen device
 * beside it (two uplinks on one segment loop, the host is cut off) and overwrite the saved .prev. Seen on a VM
 * after a power cycle: its boot configuration put the node address and a default route (metric 0) back on eth0
 * beside br-ex (bond0, metric 48), and the next run chose eth0 by the default route - exit 4, rolled back.
 */
export function assertOneUplink(s: GatewayState, bridge: string, iface: string, reason: string): void {
  const port = physicalPort(s, bridge);
  if (!port || port === iface || !s.links.some((l) => l.name === port)) return;
  throw bad(`${bridge} already carries the uplink ${port}, but the uplink chosen now is ${iface} (${reason}): moving it too would put two uplinks on one bridge ` +
    `(a loop that cuts the host off). If ${iface} should not hold the node's address or default route beside ${bridge} (a boot configuration still sets them), ` +
    `remove them there; to keep ${port}, name it (configure_ovs_uplink: ${port})`);
}
