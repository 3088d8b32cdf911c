// Pure checks of the uplink move against the probed host, before anything on the host changes:
// a bad bridge name, uplink, MTU or gateway must be refused here, not discovered half-way
// through the transaction (where add-br on `lo` once moved the node's address onto loopback).
import { HostwireError } from '../../errors.js';
import type { OvsGatewayArgs } from './args.js';
import type { GatewayState } from './parse.js';

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

/** A gateway or check target that is one of the host's own addresses answers itself: no proof at all. */
export function assertRemoteTargets(s: GatewayState, a: OvsGatewayArgs): void {
  const own = new Set(s.links.flatMap((l) => l.addrs.map((x) => x.local)));
  for (const [what, ip] of [['gateway', a.gateway], ...(a.check_targets ?? []).map((c) => ['check_targets', c])] as const) {
    if (ip && own.has(ip)) throw bad(`${what} ${ip} is an address of this host: it would answer its own check`);
  }
}
