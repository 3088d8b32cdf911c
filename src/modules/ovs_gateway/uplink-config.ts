// What must move with the uplink: MAC, MTU, addresses (static) or DHCP, routes and gateways,
// read from the live NIC, or, once it is already a bridge port, from the saved <bridge>.prev.
import { HostwireError } from '../../errors.js';
import { parsePrev, type UplinkConfig } from './env.js';
import type { GatewayState } from './parse.js';
import { LIB_DIR } from './script/index.js';
import { uplinkDevice } from './uplink-device.js';
import { detectIpv6Auto, isAutoAddr } from './ipv6-auto.js';
import { movableRoutes, routeArgs } from './uplink-routes.js';
import { refuseUnmovable } from './uplink-unmovable.js';
import { ifupdownLease } from './ifupdown.js';

export const prevPath = (bridge: string) => `${LIB_DIR}/${bridge}.prev`;

export function liveUplinkConfig(s: GatewayState, iface: string): UplinkConfig {
  const link = s.links.find((l) => l.name === iface);
  if (!link) throw new HostwireError('command-failed', `uplink ${iface} does not exist on the host`);
  if (!link.mac) throw new HostwireError('command-failed', `uplink ${iface} has no Ethernet MAC address (link type not ether)`);
  // SLAAC/DHCPv6 addresses and a default route from router advertisements come back by themselves on br-ex.
  const v6 = detectIpv6Auto(s, iface);
  const global = link.addrs.filter((a) => a.scope === 'global' && !isAutoAddr(a, v6));
  // Default and static routes of both families, each with its gateway and metric (uplink-routes.ts).
  const routes = movableRoutes(s.routes, iface);
  // A lease shows as a dynamic address, or (infinite leases) as IPv4 routes of protocol dhcp.
  const dhcp = global.some((a) => a.family === 'inet' && a.dynamic) || s.routes.some((r) => r.family === 4 && r.dev === iface && r.protocol === 'dhcp');
  const nmDev = s.nm.devices.find((d) => d.device === iface);
  const nmManaged = nmDev && !/externally|unmanaged|unavailable/.test(nmDev.state) && nmDev.conUuid;
  const device = uplinkDevice(s, iface);
  // A lease of ifupdown's dhclient: its client id and stanza (other dhclient shapes are refused here).
  const ifupdown = dhcp ? ifupdownLease(s, iface, link.mac) : undefined;
  return {
    iface,
    mac: link.mac,
    mtu: link.mtu,
    method: dhcp ? 'dhcp' : 'static',
    // A lease's own address comes back by DHCP; static IPv6 beside it (ipv4.method auto, ipv6.method manual) moves.
    addrs: (dhcp ? global.filter((a) => a.family === 'inet6' && !a.dynamic) : global).map((a) => `${a.local}/${a.prefixlen}`),
    routes: (dhcp ? routes.filter((r) => r.protocol !== 'dhcp') : routes).map((r) => routeArgs(r)),
    gateways: routes.filter((r) => r.dst === 'default' && r.gateway).sort((a, b) => a.family - b.family).map((r) => r.gateway!),
    ...(nmManaged ? { nmConn: nmDev!.conUuid } : {}),
    ...(device.kind !== 'nic' ? { device } : {}),
    ...(v6 ? { v6 } : {}),
    ...(ifupdown ? { ifupdown } : {}),
  };
}

/** The uplink's own configuration: live when not moved yet, else the saved copy. */
export function uplinkConfig(s: GatewayState, iface: string, bridge: string): { config: UplinkConfig; moved: boolean } {
  const br = s.bridges.find((b) => b.name === bridge);
  if (br?.ports.includes(iface)) {
    const saved = s.files[prevPath(bridge)];
    const config = saved ? parsePrev(saved) : undefined;
    if (config) return { config, moved: true };
    // Moved by someone else (e.g. MCO or by hand): what is on the bridge now is the config.
    const onBridge = liveUplinkConfig(s, bridge);
    const link = s.links.find((l) => l.name === iface);
    const device = uplinkDevice(s, iface);
    return { config: { ...onBridge, iface, mac: link?.mac ?? onBridge.mac, ...(device.kind !== 'nic' ? { device } : { device: undefined }) }, moved: true };
  }
  const config = liveUplinkConfig(s, iface);
  // Not moved yet: what would not move whole is refused before any change (uplink-unmovable.ts).
  refuseUnmovable(s, iface, config.method === 'dhcp');
  return { config, moved: false };
}
