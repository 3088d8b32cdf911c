// The NetworkManager backend (where NM's OVS plugin exists, as on RHEL): MCO's profile set as
// nmcli commands, all with `save no` (in /run: a power cut cannot leave half a config in /etc).
// The commands become <bridge>.nm (a small sh script: `up` creates and activates, `down` deletes)
// that the host script runs inside the same commit-confirmed transaction.
import { shellJoin } from '../../transports/quote.js';
import type { BridgeEnv, UplinkConfig } from './env.js';
import type { Ipv6Auto } from './ipv6-auto.js';
import { RUN_DIR } from './script/index.js';
import { nmDeviceProfiles, nmDeviceExtraNames, nmDevicePhysUp, nmDevicePrepare, nmDeviceSlaves, nmDeviceLinkLocal } from './nm-device-profiles.js';
import { nmUp, nmUpInBackground } from './nm-background.js';
import { isDefaultWords, nmRoute, parseRouteWords, type RouteSpec } from './uplink-routes.js';
import { nmUuid } from './nm-uuid.js';

export interface NmNames { bridge: string; portBridge: string; portPhys: string; ifPhys: string; ifBridge: string }

/** MCO's names: br-ex uses phys0, the extra bridge phys1. */
export function nmNames(bridge: string, primary: boolean): NmNames {
  const n = primary ? 0 : 1;
  return { bridge, portBridge: `ovs-port-${bridge}`, portPhys: `ovs-port-phys${n}`, ifPhys: `ovs-if-phys${n}`, ifBridge: `ovs-if-${bridge}` };
}

export { nmUuid };

const add = (words: string[]) => shellJoin(['nmcli', 'connection', 'add', ...words, 'save', 'no']);

/**
 * ovs-if-br-ex's IP settings: the uplink's IPv4 (static or DHCP with the MAC as client id, its other routes) and IPv6 (static;
 * SLAAC through the uplink's interface identifier as an eui64 token, so the address stays the same; DHCPv6 with
 * the uplink's DUID and IAID, under RAs or without them - ipv6.method dhcp, its default route a route), the
 * bridge's route metric, and the shell words that add the old profile's DNS servers at run time.
 */
export function nmIpWords(u: UplinkConfig, e: BridgeEnv): { words: string[]; dns: string } {
  const v4 = u.addrs.filter((a) => !a.includes(':'));
  const v6 = u.addrs.filter((a) => a.includes(':'));
  // A default route with src, mtu or advmss is a /0 route of ipv4/ipv6.routes with them as attributes instead of
  // ipv4/ipv6.gateway, which takes none (NM's documentation names the manual /0 route as the gateway's alternative).
  const def4 = attrDefault(e.routes, 4);
  const def6 = attrDefault(e.routes, 6);
  const gw4 = def4 ? undefined : / via (\S+)/.exec(e.routes.find((r) => r.startsWith('default ')) ?? '')?.[1];
  const gw6 = def6 ? undefined : / via (\S+)/.exec(e.routes.find((r) => r.startsWith('-6 default ')) ?? '')?.[1];
  const has4 = e.method === 'dhcp' || v4.length > 0;
  const has6 = v6.length > 0 || Boolean(e.v6);
  const ip4 = e.method === 'dhcp'
    ? ['ipv4.method', 'auto', 'ipv4.dhcp-client-id', 'mac']
    : v4.length ? ['ipv4.method', 'manual', 'ipv4.addresses', v4.join(','), ...(gw4 ? ['ipv4.gateway', gw4] : [])] : ['ipv4.method', 'disabled'];
  const auto6 = e.v6 ? ['ipv6.method', e.v6.method, ...(e.v6.tokens.length ? ['ipv6.addr-gen-mode', 'eui64'] : []), ...e.v6.tokens.flatMap((t) => ['ipv6.token', t]), ...nmDhcp6Words(e.v6)] : [];
  const static6 = v6.length ? [...(e.v6 ? [] : ['ipv6.method', 'manual']), 'ipv6.addresses', v6.join(','), ...(gw6 ? ['ipv6.gateway', gw6] : [])] : [];
  // DHCPv6 without RAs (ipv6.method dhcp) brings no default route: the uplink's own one (its profile's) goes
  // along as a route - NM takes no ipv6.gateway without a static address.
  const route6 = def6 ? [nmRoute({ ...def6, dst: '::/0' })] : e.v6?.method === 'dhcp' && !v6.length && gw6 ? [`::/0 ${gw6}`] : [];
  // The uplink's other routes (uplink-routes.ts) with their gateway and metric, as MCO copies the profile's routes.
  const others = e.routes.filter((r) => !isDefaultWords(r)).map(parseRouteWords);
  // A lease's IPv4 default route is the lease's (DHCP).
  const routes4 = [...(def4 && e.method !== 'dhcp' ? [nmRoute({ ...def4, dst: '0.0.0.0/0' })] : []), ...others.filter((r) => r.family === 4).map(nmRoute)];
  const routes6 = [...route6, ...others.filter((r) => r.family === 6).map(nmRoute)];
  const ip6 = has6 ? [...auto6, ...static6] : ['ipv6.method', 'ignore'];
  // A family must come up for the activation to count (NM refuses DNS servers on a disabled/ignored family).
  const mayFail = [...(has4 ? ['ipv4.may-fail', 'no'] : []), ...(has6 ? ['ipv6.may-fail', 'no'] : [])];
  return {
    words: [...ip4, ...(has4 && routes4.length ? ['ipv4.routes', routes4.join(', ')] : []), ...ip6, ...(has6 && routes6.length ? ['ipv6.routes', routes6.join(', ')] : []), ...mayFail, 'ipv4.route-metric', String(e.metric), 'ipv6.route-metric', String(e.metric)],
    dns: `${has4 ? ' ${DNS:+ipv4.dns "$DNS"}' : ''}${has6 ? ' ${DNS6:+ipv6.dns "$DNS6"}' : ''}`,
  };
}

/** The family's default route when it has a src, mtu or advmss (the bridge's metric in its words, desiredEnv). */
function attrDefault(routes: string[], family: 4 | 6): RouteSpec | undefined {
  const r = routes.filter(isDefaultWords).map(parseRouteWords).find((x) => x.family === family);
  return r && (r.src !== undefined || r.mtu !== undefined || r.advmss !== undefined) ? r : undefined;
}

/** The IAID as NM prints it in a lease (`iaid = 2b:50:67:35`) and takes it in ipv6.dhcp-iaid: four colon-separated bytes. */
export const nmIaid = (iaid: number) => (iaid >>> 0).toString(16).padStart(8, '0').replace(/(..)(?!$)/g, '$1:');

/**
 * A DHCPv6 lease stays the same on br-ex when ovs-if-br-ex's client sends the DUID and IAID the uplink's client
 * sent: NM would otherwise derive the IAID from the interface name (br-ex's differs) - ipv6.dhcp-iaid (NM >= 1.22
 * for DHCPv6, its internal client) and ipv6.dhcp-duid (a hex string: sent as it is).
 */
function nmDhcp6Words(v6: Ipv6Auto): string[] {
  return v6.duid && v6.iaid !== undefined ? ['ipv6.dhcp-duid', v6.duid, 'ipv6.dhcp-iaid', nmIaid(v6.iaid)] : [];
}

/** The `up` commands (pure; unit-tested against recorded nmcli behaviour). */
export function planNmUp(u: UplinkConfig, e: BridgeEnv, primary = e.metric === 48): string[] {
  const n = nmNames(e.bridge, primary);
  const ip = nmIpWords(u, e);
  const netdev = e.datapath === 'netdev';
  return [
    add(['type', 'ovs-bridge', 'con-name', n.bridge, 'connection.uuid', nmUuid(n.bridge), 'connection.interface-name', e.bridge, 'ovs-bridge.datapath-type', e.datapath, '802-3-ethernet.mtu', String(e.mtu)]),
    add(['type', 'ovs-port', 'con-name', n.portBridge, 'connection.uuid', nmUuid(n.portBridge), 'connection.interface-name', e.bridge, 'connection.master', nmUuid(n.bridge), 'connection.slave-type', 'ovs-bridge']),
    add(['type', 'ovs-port', 'con-name', n.portPhys, 'connection.uuid', nmUuid(n.portPhys), 'connection.interface-name', u.iface, 'connection.master', nmUuid(n.bridge), 'connection.slave-type', 'ovs-bridge']),
    ...(nmDeviceProfiles(e, n.ifPhys, nmUuid(n.portPhys), nmUuid) ?? [['type', '802-3-ethernet', 'con-name', n.ifPhys, 'connection.interface-name', u.iface, 'connection.master', nmUuid(n.portPhys), 'connection.slave-type', 'ovs-port',
      'connection.autoconnect-priority', '100', '802-3-ethernet.mtu', String(e.mtu), '802-3-ethernet.cloned-mac-address', e.mac]]).map(add),
    `${add(['type', 'ovs-interface', 'con-name', n.ifBridge, 'connection.interface-name', e.bridge, 'connection.master', nmUuid(n.portBridge), 'connection.slave-type', 'ovs-port',
      'connection.autoconnect', 'no', '802-3-ethernet.mtu', String(e.mtu), ...(netdev ? [] : ['802-3-ethernet.cloned-mac-address', e.mac]),
      ...ip.words]).replace(/ save no$/, '')}${ip.dns} save no`,
    ...planNmActivate(n, e, u.nmConn),
  ];
}

/**
 * The activation, as seen on a lab host with the plugin (NM 1.42, netdev datapath): the NIC's profile
 * completes only once the bridge's interface is up, so it runs in the background, and so do a bond's
 * ports' (started before the bridge's interface: see nmDeviceSlaves).
 * The bridge's interface is not autoconnected (it would come up before its MAC is right) and gets autoconnect
 * back afterwards (`--temporary`: the profiles stay in /run). On the netdev datapath NM cannot clone a MAC onto
 * the interface (it failed "set-hw-addr ... not successfully set-cloned", then "ip-config-unavailable"):
 * the bridge's `other_config:hwaddr` gives it the NIC's MAC instead, set before the interface exists.
 */
function planNmActivate(n: NmNames, e: BridgeEnv, nmConn: string | undefined): string[] {
  const q = (w: string) => shellJoin([w]);
  const phys = nmUpInBackground(n.ifPhys, e.bridge, 'phys', nmDevicePhysUp(e, n.ifPhys));
  const ports = nmDeviceSlaves(e);
  // With ports under way, a failed ovs-if-br-ex shows what they (and the phys profile) said so far.
  const shown = ports ? ` || { tail -n +1 ${phys.log} ${ports.log} 2>/dev/null; exit 1; }` : '';
  return [
    ...nmDevicePrepare(e, n.ifPhys, nmConn),
    phys.start,
    `i=0; until ovs-vsctl --timeout=5 br-exists ${q(e.bridge)}; do i=$((i+1)); [ $i -lt 150 ] || { echo "NetworkManager made no OVS bridge ${e.bridge} in 30 s"; exit 1; }; sleep 0.2; done`,
    ...(e.datapath === 'netdev' ? [shellJoin(['ovs-vsctl', '--timeout=10', 'set', 'bridge', e.bridge, `other_config:hwaddr="${e.mac}"`])] : []),
    ...(ports ? [ports.start] : []),
    `${nmUp(n.ifBridge)}${shown}`,
    ...phys.wait,
    ...(ports?.settle ?? []),
    ...nmDeviceLinkLocal(e),
    shellJoin(['nmcli', 'connection', 'modify', '--temporary', n.ifBridge, 'connection.autoconnect', 'yes']),
  ];
}

export function planNmDown(e: BridgeEnv, primary = e.metric === 48): string[] {
  const n = nmNames(e.bridge, primary);
  return [`nmcli connection delete ${shellJoin([n.ifBridge, ...nmDeviceExtraNames(e), n.ifPhys, n.portPhys, n.portBridge, n.bridge])} 2>/dev/null || true`];
}

/** The staged <bridge>.nm script: `up` copies the old profile's DNS and activates, `down` deletes. */
export function planNmProfiles(u: UplinkConfig, e: BridgeEnv, primary: boolean): string[] {
  const dns = u.nmConn
    ? ['ipv4', 'ipv6'].map((f) => `DNS${f === 'ipv6' ? '6' : ''}=$(nmcli -g ${f}.dns connection show uuid ${shellJoin([u.nmConn!])} 2>/dev/null | tr -d '\\\\')`)
    : ['DNS= DNS6='];
  return [
    'set -e',
    `mkdir -p ${RUN_DIR}`,
    'case "$1" in',
    'up)',
    ...planNmDown(e, primary),
    ...dns,
    ...planNmUp(u, e, primary),
    ';;',
    'down)',
    ...planNmDown(e, primary),
    'nmcli connection reload',
    ';;',
    'esac',
  ];
}
