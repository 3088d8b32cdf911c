// Pure: the desired <bridge>.env from the uplink's configuration and the arguments, and how the
// live host differs from it (an empty list = converged).
import type { OvsGatewayArgs } from './args.js';
import { renderEnv, type BridgeEnv, type UplinkConfig } from './env.js';
import type { Addr, GatewayState, Route } from './parse.js';
import { ETC_DIR } from './script/index.js';
import { interfaceId } from './ipv6-auto.js';
import { isDefaultWords, parseRouteWords, routeMetrics, type RouteSpec } from './uplink-routes.js';

export const envPath = (bridge: string) => `${ETC_DIR}/${bridge}.env`;
export const nftTableName = (uplink: string) => `hostwire_${uplink.replace(/[^A-Za-z0-9_]/g, '_')}`;

export function desiredEnv(u: UplinkConfig, a: OvsGatewayArgs, bridge: string, metric: number, backend: 'ovs' | 'nm', primary: boolean): BridgeEnv {
  const gw = primary && a.gateway ? a.gateway : undefined;
  // Default routes take the bridge's metric (and the gateway asked for); the others keep their own.
  const routes = u.routes.map((r) => {
    if (!isDefaultWords(r)) return r;
    let out = r.replace(/ metric \d+/, '') + ` metric ${metric}`;
    if (gw && !r.startsWith('-6')) out = out.replace(/ via \S+/, ` via ${gw}`);
    return out;
  });
  // The check pings the IPv4 gateway, else (an IPv6-only uplink) the IPv6 one, so a move is never unchecked.
  const checkGw = gw ?? u.gateways.find((g) => !g.includes(':')) ?? u.gateways.find((g) => g.includes(':'));
  return {
    bridge,
    uplink: u.iface,
    mac: u.mac,
    mtu: (primary ? a.mtu : undefined) ?? u.mtu,
    method: u.method,
    addrs: u.addrs,
    routes,
    metric,
    datapath: a.datapath_type,
    dropIngress: a.drop_kernel_ingress === 'auto' ? a.datapath_type === 'netdev' : a.drop_kernel_ingress,
    check: primary && a.check_targets ? a.check_targets : checkGw ? [checkGw] : [],
    backend,
    ...(u.device && u.device.kind !== 'nic' ? { device: u.device } : {}),
    ...(u.v6 ? { v6: u.v6 } : {}),
    ...(u.ifupdown ? { ifupdown: u.ifupdown } : {}),
  };
}

/**
 * The env as state: without CHECK, which is how a move is proven (the transaction's pings), not what the
 * host should look like - a host moved under other check targets (one moved before IPv6-only uplinks got
 * theirs: `CHECK=''`) is converged, not re-moved.
 */
const stateOf = (env: string) => env.replace(/^CHECK=.*$/m, '').trim();

/** Every way the live host differs from `e` (messages for the change summary). */
export function driftOf(s: GatewayState, e: BridgeEnv): string[] {
  const d: string[] = [];
  const saved = s.files[envPath(e.bridge)];
  if (saved === undefined || stateOf(saved) !== stateOf(renderEnv(e))) d.push(saved ? 'desired state changed' : 'not moved yet');
  const br = s.bridges.find((b) => b.name === e.bridge);
  if (!br) return [...d, `no OVS bridge ${e.bridge}`];
  if (!br.ports.includes(e.uplink)) d.push(`${e.uplink} is not a port of ${e.bridge}`);
  if (br.datapathType !== e.datapath) d.push(`datapath_type ${br.datapathType}`);
  const link = s.links.find((l) => l.name === e.bridge);
  if (!link) return [...d, `no ${e.bridge} interface`];
  if (link.mac !== e.mac) d.push(`${e.bridge} MAC ${link.mac ?? 'none'}`);
  if (link.mtu !== e.mtu) d.push(`${e.bridge} MTU ${link.mtu}`);
  if (!link.up) d.push(`${e.bridge} is down`);
  const have = new Set(link.addrs.map((a) => `${a.local}/${a.prefixlen}`));
  if (e.method === 'dhcp') {
    if (!link.addrs.some((a) => a.family === 'inet' && a.scope === 'global')) d.push(`${e.bridge} has no DHCP address`);
  }
  // Static addresses (a DHCP uplink's static IPv6 ones too).
  for (const a of e.addrs) if (!have.has(a)) d.push(`${a} missing on ${e.bridge}`);
  const up = s.links.find((l) => l.name === e.uplink);
  if (up?.addrs.some((a) => a.scope === 'global')) d.push(`${e.uplink} still holds addresses`);
  d.push(...staticRouteDrift(s, e));
  for (const r of e.routes.filter(isDefaultWords)) {
    const w = parseRouteWords(r);
    const same = s.routes.filter((x) => x.family === w.family && x.dst === 'default' && x.dev === e.bridge && (x.metric ?? 0) === e.metric && (!w.via || x.gateway === w.via));
    if (!same.length) d.push(`route "${r}" missing on ${e.bridge}`);
    // A lease's default route is its DHCP client's, with the client's attributes (networkd adds the lease as src;
    // dhclient did not): only recorded static ones are compared, as the move's own check does (routes_ok).
    else if (!(e.method === 'dhcp' && w.family === 4)) d.push(...attrDrift(r, w, same, e.bridge));
  }
  if (e.method === 'dhcp' && !s.routes.some((x) => x.family === 4 && x.dst === 'default' && x.dev === e.bridge)) d.push(`no default route on ${e.bridge}`);
  if (e.v6) d.push(...ipv6Drift(s, e, link.addrs));
  if (e.dropIngress && !s.nftTables.includes(nftTableName(e.uplink))) d.push(`kernel ingress on ${e.uplink} not dropped`);
  return d;
}

/**
 * The uplink's other routes on the bridge: same destination, gateway and metric (ip shows no IPv4 metric 0), and
 * the same preferred source, mtu and advmss - one that lost them (put back by hand without) is drift too (a default
 * route's: driftOf).
 */
function staticRouteDrift(s: GatewayState, e: BridgeEnv): string[] {
  return e.routes.filter((r) => !isDefaultWords(r)).flatMap((r) => {
    const w = parseRouteWords(r);
    const same = s.routes.filter((x) => x.family === w.family && x.dev === e.bridge && x.dst === w.dst && x.gateway === w.via && (x.metric ?? 0) === (w.metric ?? 0));
    return same.length ? attrDrift(r, w, same, e.bridge) : [`route "${r}" missing on ${e.bridge}`];
  });
}

/** A route found on the bridge (`same`: its matches) without the recorded src, mtu and advmss - a default route's too. */
function attrDrift(r: string, w: RouteSpec, same: Route[], bridge: string): string[] {
  const m = (x: Route) => routeMetrics(x);
  return same.some((x) => x.prefsrc === w.src && m(x).mtu === w.mtu && m(x).advmss === w.advmss) ? []
    : [`route "${r}" on ${bridge} differs (now: src ${same[0]!.prefsrc ?? 'none'}, mtu ${m(same[0]!).mtu ?? 'none'}, advmss ${m(same[0]!).advmss ?? 'none'})`];
}

/** SLAAC/DHCPv6 on the bridge: an address per recorded token (or any global one) and a default route from RAs at the metric. */
function ipv6Drift(s: GatewayState, e: BridgeEnv, addrs: Addr[]): string[] {
  const d: string[] = [];
  const v6 = addrs.filter((a) => a.family === 'inet6' && a.scope === 'global' && !a.temporary);
  for (const t of e.v6!.tokens) if (!v6.some((a) => interfaceId(a.local) === t)) d.push(`no SLAAC address ${t} on ${e.bridge}`);
  if (!v6.length) d.push(`no IPv6 address on ${e.bridge}`);
  if (e.v6!.raDefault && !s.routes.some((x) => x.family === 6 && x.dst === 'default' && x.dev === e.bridge && (x.metric ?? 0) === e.metric)) {
    d.push(`no IPv6 default route (router advertisement, metric ${e.metric}) on ${e.bridge}`);
  }
  return d;
}
