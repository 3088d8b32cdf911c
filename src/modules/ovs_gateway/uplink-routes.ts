// The uplink's routes that move onto the bridge with it: every unicast route of the device in the main table
// that the kernel did not make (proto kernel: an address's prefix route, fe80::/64) and that does not come
// back by itself (proto ra: router advertisements; DHCP's routes come back with the lease, see uplink-config).
// MCO's configure-ovs copies the profile's ipv4.routes/ipv6.routes onto ovs-if-br-ex; here they are read
// from the kernel, so routes set by hand or by another tool move too, each with its gateway and metric, and
// its preferred source (`src`) and per-route `mtu`/`advmss`, a default route's too (what else a route has is refused,
// uplink-unmovable.ts).
// They come from the host, so each is checked word by word before it reaches a command line.
import { isIP } from 'node:net';
import { HostwireError } from '../../errors.js';
import type { Route } from './parse.js';

/** One route as `ip route` words take it (the device left out): `-6 default` for an IPv6 default route. */
export interface RouteSpec { family: 4 | 6; dst: string; via?: string; metric?: number; onlink?: boolean; src?: string; mtu?: number; advmss?: number }

/** The per-route metrics carried, with the range each is taken in (the kernel's: it caps mtu at 65520, advmss at 65495). */
export const ROUTE_METRICS = { mtu: [68, 65535], advmss: [1, 65535] } as const;
type MetricKey = keyof typeof ROUTE_METRICS;
const inRange = (k: MetricKey, v: unknown) => Number.isInteger(v) && (v as number) >= ROUTE_METRICS[k][0] && (v as number) <= ROUTE_METRICS[k][1];

const bad = (what: string, text: string) => new HostwireError('command-failed', `ovs_gateway: the uplink's route "${text.slice(0, 120)}": ${what}`);

/** `default`, an address, or an address/prefix length of the family. */
function validDst(dst: string, family: 4 | 6): boolean {
  if (dst === 'default') return true;
  const [addr, len, more] = dst.split('/');
  if (more !== undefined || isIP(addr ?? '') !== family) return false;
  return len === undefined || (/^\d{1,3}$/.test(len) && Number(len) <= (family === 4 ? 32 : 128));
}

/** Refuses anything that is not a plain route: a prefix of the family, a gateway address of it, an integer metric. */
export function checkRoute(r: RouteSpec, text: string): RouteSpec {
  if (!validDst(r.dst, r.family)) throw bad(`"${r.dst.slice(0, 60)}" is not an IPv${r.family} prefix`, text);
  if (r.via !== undefined && isIP(r.via) !== r.family) throw bad(`gateway "${r.via.slice(0, 60)}" is not an IPv${r.family} address`, text);
  if (r.metric !== undefined && !(Number.isInteger(r.metric) && r.metric >= 0 && r.metric <= 0xffffffff)) throw bad(`metric "${String(r.metric).slice(0, 20)}" is not an integer`, text);
  if (r.src !== undefined && isIP(r.src) !== r.family) throw bad(`src "${String(r.src).slice(0, 60)}" is not an IPv${r.family} address`, text);
  for (const k of ['mtu', 'advmss'] as const) {
    if (r[k] !== undefined && !inRange(k, r[k])) throw bad(`${k} "${String(r[k]).slice(0, 20)}" is not an integer from ${ROUTE_METRICS[k][0]} to ${ROUTE_METRICS[k][1]}`, text);
  }
  return r;
}

/** `ip route` arguments (without dev) that re-create a route elsewhere (`metric` replaces its own). */
export function routeWords(r: RouteSpec, metric?: number): string {
  const words = [r.family === 6 && r.dst === 'default' ? '-6 default' : r.dst];
  if (r.via) words.push('via', r.via);
  const m = metric ?? r.metric;
  if (m !== undefined) words.push('metric', String(m));
  if (r.onlink) words.push('onlink');
  if (r.src) words.push('src', r.src);
  if (r.mtu !== undefined) words.push('mtu', String(r.mtu));
  if (r.advmss !== undefined) words.push('advmss', String(r.advmss));
  return words.join(' ');
}

/** The words back as a route (from a state file, the host's too): refused unless routeWords could have written them. */
export function parseRouteWords(text: string): RouteSpec {
  const w = text.trim().split(/\s+/);
  const family: 4 | 6 = w[0] === '-6' ? 6 : (w[0] ?? '').includes(':') ? 6 : 4;
  if (w[0] === '-6') w.shift();
  const r: RouteSpec = { family, dst: w.shift() ?? '' };
  while (w.length) {
    const k = w.shift()!;
    if (k === 'via' && w.length && r.via === undefined) r.via = w.shift()!;
    else if (k === 'metric' && w.length && r.metric === undefined && /^\d{1,10}$/.test(w[0]!)) r.metric = Number(w.shift());
    else if (k === 'onlink' && !r.onlink) r.onlink = true;
    else if (k === 'src' && w.length && r.src === undefined) r.src = w.shift()!;
    else if ((k === 'mtu' || k === 'advmss') && w.length && r[k] === undefined && /^\d{1,10}$/.test(w[0]!)) r[k] = Number(w.shift());
    else throw bad(`unexpected word "${k.slice(0, 40)}"`, text);
  }
  if (r.family === 4 && r.via?.includes(':')) r.family = 6; // `default via <IPv6>` written without -6 by hand
  return checkRoute(r, text);
}

const isLinkLocal6 = (dst: string) => /^fe[89ab][0-9a-f]:/i.test(dst);

/** The device's routes that move: unicast, main table, not the kernel's own, not from router advertisements. */
export function movableRoutes(routes: Route[], iface: string): Route[] {
  return routes.filter((r) => r.dev === iface && (r.type === undefined || r.type === 'unicast') && (r.table === undefined || r.table === 'main')
    && r.protocol !== 'kernel' && r.protocol !== 'ra' && !(r.family === 6 && (r.protocol === 'dhcp' || isLinkLocal6(r.dst))));
}

/** A probed route's carried metrics (`ip -j` gives them as `metrics: [{ mtu: 1400, advmss: 1360 }]`). */
export function routeMetrics(r: Route): { mtu?: number; advmss?: number } {
  const m = Array.isArray(r.metrics) && r.metrics.length === 1 && r.metrics[0] && typeof r.metrics[0] === 'object' ? r.metrics[0] : {};
  return { ...(m.mtu !== undefined ? { mtu: m.mtu as number } : {}), ...(m.advmss !== undefined ? { advmss: m.advmss as number } : {}) };
}

/** A probed route as a checked RouteSpec (`text` names it in a refusal). */
export function routeSpec(r: Route): RouteSpec {
  const spec: RouteSpec = { family: r.family, dst: r.dst, ...(r.gateway !== undefined ? { via: r.gateway } : {}), ...(r.metric !== undefined ? { metric: r.metric } : {}),
    ...(r.flags?.includes('onlink') ? { onlink: true } : {}), ...(r.prefsrc !== undefined ? { src: r.prefsrc } : {}), ...routeMetrics(r) };
  return checkRoute(spec, `${r.dst} ${r.gateway ? `via ${r.gateway} ` : ''}dev ${r.dev ?? '?'}${r.metric !== undefined ? ` metric ${r.metric}` : ''}`);
}

/** `ip route` arguments (without dev) of a probed route, checked. */
export const routeArgs = (r: Route, metric?: number): string => routeWords(routeSpec(r), metric);

/**
 * NetworkManager's ipv4.routes/ipv6.routes entry: `dst [gateway] metric [onlink=true] [src=A] [mtu=N] [advmss=N]` (no
 * metric = ip's 0; IPv6's always shown), the attributes as nmcli documents them (NM 1.42 on the lab hosts takes them).
 */
export function nmRoute(r: RouteSpec): string {
  return [r.dst, r.via, String(r.metric ?? 0), ...(r.onlink ? ['onlink=true'] : []), ...(r.src ? [`src=${r.src}`] : []),
    ...(r.mtu !== undefined ? [`mtu=${r.mtu}`] : []), ...(r.advmss !== undefined ? [`advmss=${r.advmss}`] : [])].filter(Boolean).join(' ');
}

/** A route of the list is a default route. */
export const isDefaultWords = (words: string) => /^(-6 )?default( |$)/.test(words);
