// Pure parsers: the gateway probe's sections -> GatewayState.
import { HostwireError, ProbeParseError } from '../../errors.js';
import { parseToolJson } from '../../probe/tool-json.js';
import { readSections, type Section } from '../../probe/sections.js';
import { asMap, parseOvsTables } from '../kit/ovsdb.js';
import { parseOvsKernel, type OvsKernel } from './datapath.js';
import { parseIfupdown, type IfupdownState } from './ifupdown.js';
import { ownOrSet } from '../../own-keys.js';

export interface Addr { family: 'inet' | 'inet6'; local: string; prefixlen: number; scope: string; dynamic: boolean;
  /** IPv6 flags: a kernel SLAAC address (mngtmpaddr), a privacy address (temporary); only when set. */
  mngtmpaddr?: boolean; temporary?: boolean }
export interface Link {
  name: string; mac?: string; mtu: number; up: boolean; master?: string; addrs: Addr[]; linkType?: string; kind?: string; maxMtu?: number;
  /** false when the kernel flags NO-CARRIER (a cable out, a bond with no active port, a VLAN's parent down). */
  carrier?: boolean;
  /** ip -d: the kind's own settings (a bond's mode and options, a VLAN's id and protocol), as the kernel reports them. */
  info?: Record<string, unknown>;
  /** A port of a bond: 'bond' (its master is the bond). */
  slaveKind?: string;
  /** The device this one is stacked on (a VLAN's parent). */
  parent?: string;
}
export interface Route { dst: string; gateway?: string; dev?: string; metric?: number; protocol?: string; scope?: string; family: 4 | 6;
  /** ip's route type when not unicast (multicast, unreachable...), its table when not main, its flags (onlink...). */
  type?: string; table?: string; flags?: string[];
  /** A multipath route's next hops (it then has no top-level dev or gateway). */
  nexthops?: { gateway?: string; dev?: string; weight?: number }[];
  /** Its preferred source address and its per-route metrics (`[{ mtu, advmss... }]`; a lock is not in ip's JSON). */
  prefsrc?: string; metrics?: Record<string, unknown>[] }
/** A main-table route whose metric is locked (`mtu lock 1400`): ip -j does not show the lock, its text does. */
export interface LockedRoute { family: 4 | 6; dst: string; dev?: string; locked: string[] }
/** A policy rule (`ip -j rule`): the devices it names. */
export interface Rule { family: 4 | 6; priority?: number; iif?: string; oif?: string; table?: string }
export interface OvsBridgeInfo { name: string; datapathType: string; failMode: string; otherConfig: Record<string, string>; externalIds: Record<string, string>; ports: string[] }
/** NetworkManager's DHCPv6 client on one device: the DUID and IAID it sent and the addresses it got. */
export interface NmDhcp6 { duid?: string; iaid?: number; addrs: string[] }
export interface NmDevice { device: string; type: string; state: string; conUuid: string }

export interface GatewayState {
  machineId: string;
  /** Undefined when OVS is not running (or not installed): the reason. */
  ovsError?: string;
  bridges: OvsBridgeInfo[];
  /** Interface name -> its OVS type ('' = a system device, 'internal' = a bridge's own port). */
  ovsIfTypes: Record<string, string>;
  links: Link[];
  routes: Route[];
  /** Routes of the tables other than main and local (absent in recordings made before they were probed). */
  otherRoutes?: Route[];
  /** Main-table routes with a locked metric (absent in recordings made before they were probed). */
  lockedRoutes?: LockedRoute[];
  /** Policy rules of both families (likewise). */
  rules?: Rule[];
  /** Path -> content of MCO's hint files and hostwire's saved env/prev files that exist. */
  files: Record<string, string>;
  /** version: nmcli's (`nmcli --version`), absent in recordings without it or when it prints none. */
  nm: { present: boolean; running: boolean; ovsPlugin: boolean; devices: NmDevice[]; version?: string };
  /** Device -> NM's DHCPv6 lease on it (devices without one are absent). */
  nmDhcp6?: Record<string, NmDhcp6>;
  /** ifupdown and ISC dhclient (absent in recordings made before they were probed). */
  ifupdown?: IfupdownState;
  nftTables: string[];
  /** The kernel's openvswitch module (datapath_type auto). */
  ovsKernel: OvsKernel;
  /** false: the kernel has no IPv6 at all (booted with ipv6.disable=1); true also for recordings without the section. */
  kernelIpv6: boolean;
  /** Device (and `all`, `default`) -> its net.ipv6.conf.<dev>.disable_ipv6; empty without IPv6 or in recordings without it. */
  disableIpv6: Record<string, boolean>;
  bootUnitEnabled: boolean;
  scriptSha: string;
  /** Transactions an earlier run started that have no result yet (e.g. its controller was killed). */
  pending: PendingTxn[];
}

export interface PendingTxn {
  id: string;
  phase: 'applying' | 'waiting';
  /** waiting: the host's epoch seconds when its confirm window opened, and the window's length. */
  since?: number;
  timeoutSec?: number;
}

export function parsePending(s: Section | undefined): PendingTxn[] {
  return (s?.out ?? '').split('\n').flatMap((l) => {
    const m = /^([0-9a-z]{6,32}) (applying|waiting)(?: (\d+)(?: (\d+))?)?$/.exec(l.trim());
    if (!m) return [];
    return [{ id: m[1]!, phase: m[2] as PendingTxn['phase'], ...(m[3] ? { since: Number(m[3]) } : {}), ...(m[4] ? { timeoutSec: Number(m[4]) } : {}) }];
  });
}

function json<T>(s: Section | undefined, what: string): T {
  return parseToolJson<T>(s?.out.trim() || '[]', what, ['ifname', 'dev', 'dst']);
}

interface AddrJson { ifname: string; address?: string; mtu: number; flags?: string[]; master?: string; link_type?: string; max_mtu?: number; link?: string | null;
  linkinfo?: { info_kind?: string; info_data?: Record<string, unknown>; info_slave_kind?: string }; addr_info?: { family: string; local: string; prefixlen: number; scope?: string; dynamic?: boolean; mngtmpaddr?: boolean; temporary?: boolean }[] }

export function parseLinks(s: Section | undefined): Link[] {
  return json<AddrJson[]>(s, 'ip -j addr').map((l) => ({
    name: l.ifname,
    ...(l.link_type === 'ether' && l.address ? { mac: l.address } : {}),
    mtu: l.mtu,
    up: (l.flags ?? []).includes('UP'),
    ...(l.master ? { master: l.master } : {}),
    // ip -d: the link's kind (veth, bridge, tun...) and the largest MTU its driver takes.
    ...(l.link_type ? { linkType: l.link_type } : {}),
    ...(l.linkinfo?.info_kind ? { kind: l.linkinfo.info_kind } : {}),
    ...(l.max_mtu ? { maxMtu: l.max_mtu } : {}),
    ...((l.flags ?? []).includes('NO-CARRIER') ? { carrier: false } : (l.flags ?? []).includes('LOWER_UP') ? { carrier: true } : {}),
    ...(l.linkinfo?.info_data ? { info: l.linkinfo.info_data } : {}),
    ...(l.linkinfo?.info_slave_kind ? { slaveKind: l.linkinfo.info_slave_kind } : {}),
    ...(typeof l.link === 'string' && l.link ? { parent: l.link } : {}),
    addrs: (l.addr_info ?? []).filter((a) => a.family === 'inet' || a.family === 'inet6').map((a) => ({
      family: a.family as Addr['family'], local: a.local, prefixlen: a.prefixlen, scope: a.scope ?? 'global', dynamic: Boolean(a.dynamic),
      ...(a.mngtmpaddr ? { mngtmpaddr: true } : {}), ...(a.temporary ? { temporary: true } : {}),
    })),
  }));
}

export function parseRoutes(s: Section | undefined, family: 4 | 6): Route[] {
  if (!s || (s.rc !== 0 && !s.out.trim().startsWith('['))) return [];
  return json<Omit<Route, 'family'>[]>(s, 'ip -j route').map((r) => ({ ...r, family }));
}

/** The main table's routes out of every table's (ip prints no table for main's). */
export const mainTableRoutes = (s: Section | undefined, family: 4 | 6): Route[] =>
  parseRoutes(s, family).filter((r) => r.table === undefined || r.table === 'main');

/**
 * The main table's routes: read out of the `-all` sections (one read of the table), or, in a recording made
 * before the probe dropped them, out of its own `route4`/`route6` sections.
 */
export function parseMainRoutes(s: Map<string, Section>): Route[] {
  const of = (family: 4 | 6) => s.get(`route${family}-all`) ? mainTableRoutes(s.get(`route${family}-all`), family) : parseRoutes(s.get(`route${family}`), family);
  return [...of(4), ...of(6)];
}

/** `ip route show table main` lines with a locked metric: `10.21.0.0/16 via GW dev eth0 mtu lock 1300` (lock names mtu). */
export function parseLockedRoutes(s: Section | undefined): LockedRoute[] {
  return (s?.out ?? '').split('\n').flatMap((line) => {
    const w = line.trim().split(/\s+/);
    const locked = w.flatMap((x, i) => (x === 'lock' && i > 0 ? [w[i - 1]!] : []));
    if (!locked.length) return [];
    const dev = w[w.indexOf('dev') + 1];
    const dst = w[0] === '-6' ? w[1]! : w[0]!;
    return [{ family: w[0] === '-6' || dst.includes(':') ? 6 as const : 4 as const, dst, ...(w.includes('dev') && dev ? { dev } : {}), locked }];
  });
}

/** Every table's routes less main's and local's (the kernel's own for the addresses). */
export const otherTableRoutes = (s: Section | undefined, family: 4 | 6): Route[] =>
  parseRoutes(s, family).filter((r) => r.table !== undefined && r.table !== 'main' && r.table !== 'local');

export function parseRules(s: Section | undefined, family: 4 | 6): Rule[] {
  if (!s || s.rc !== 0) return [];
  return parseToolJson<Omit<Rule, 'family'>[]>(s.out.trim() || '[]', 'ip -j rule', ['priority']).map((r) => ({ ...r, family }));
}

/** `@@file <path>` blocks -> path -> content (the trailing newline the probe adds is dropped). */
export function parseFiles(out: string): Record<string, string> {
  const files: Record<string, string> = {};
  let cur: string | undefined;
  for (const line of out.split('\n')) {
    const m = /^@@file (.+)$/.exec(line);
    if (m) { cur = m[1]!; files[cur] = ''; continue; }
    if (cur !== undefined) files[cur] += `${line}\n`;
  }
  for (const k of Object.keys(files)) files[k] = files[k]!.replace(/\n\n$/, '\n');
  return files;
}

export function parseNm(s: Section | undefined): GatewayState['nm'] {
  if (!s || s.rc === 127) return { present: false, running: false, ovsPlugin: false, devices: [] };
  const lines = s.out.split('\n').filter(Boolean);
  const devices = lines.filter((l) => l.split(':').length >= 4 && !l.startsWith('@@')).map((l) => {
    const [device, type, state, conUuid] = l.split(':');
    return { device: device!, type: type!, state: state!, conUuid: conUuid ?? '' };
  });
  const version = lines.map((l) => /^@@version (\d+\.\d+(?:\.\d+)*)/.exec(l)?.[1]).find(Boolean);
  return { present: true, running: lines[0] === 'running', ovsPlugin: lines.includes('@@plugin ovs'), devices, ...(version ? { version } : {}) };
}

/** `nmcli -t -f GENERAL.DEVICE,DHCP6 device show`: each device's dhcp6_client_id, iaid and ip6_address options. */
export function parseNmDhcp6(s: Section | undefined): Record<string, NmDhcp6> {
  const out: Record<string, NmDhcp6> = {};
  let dev: string | undefined;
  for (const line of (s?.out ?? '').split('\n')) {
    const d = /^GENERAL\.DEVICE:(.+)$/.exec(line);
    if (d) { dev = d[1]!; continue; }
    const o = /^DHCP6\.OPTION\[\d+\]:(\w+) = (.+)$/.exec(line);
    if (!dev || !o) continue;
    const l = ownOrSet(out, dev, () => ({ addrs: [] }));
    const v = o[2]!.trim();
    if (o[1] === 'dhcp6_client_id' && /^[0-9a-f]{2}(:[0-9a-f]{2})+$/i.test(v)) l.duid = v.toLowerCase();
    if (o[1] === 'iaid' && /^[0-9a-f]{2}(:[0-9a-f]{2}){3}$/i.test(v)) l.iaid = parseInt(v.replaceAll(':', ''), 16);
    if (o[1] === 'ip6_address') l.addrs.push(...v.split(' ').filter(Boolean));
  }
  return out;
}

function parseOvs(sections: Map<string, Section>): Pick<GatewayState, 'ovsError' | 'bridges' | 'ovsIfTypes'> {
  const br = sections.get('ovs-br');
  if (!br || br.rc !== 0) return { ovsError: br?.out.trim() || 'ovs-vsctl failed', bridges: [], ovsIfTypes: {} };
  const ports = new Map<string, string[]>();
  let cur: string | undefined;
  for (const line of (sections.get('ovs-ports')?.out ?? '').split('\n')) {
    const m = /^@@br (.+)$/.exec(line);
    if (m) { cur = m[1]!; ports.set(cur, []); } else if (cur && line.trim()) ports.get(cur)!.push(line.trim());
  }
  const bridges = (parseOvsTables(br.out)[0] ?? []).map((r) => ({
    name: String(r.name),
    datapathType: typeof r.datapath_type === 'string' && r.datapath_type ? r.datapath_type : 'system',
    failMode: typeof r.fail_mode === 'string' ? r.fail_mode : '',
    otherConfig: asMap(r.other_config),
    externalIds: asMap(r.external_ids),
    ports: ports.get(String(r.name)) ?? [],
  }));
  const ifs = parseOvsTables(sections.get('ovs-if')?.out ?? '')[0] ?? [];
  return { bridges, ovsIfTypes: Object.fromEntries(ifs.map((r) => [String(r.name), typeof r.type === 'string' ? r.type : ''])) };
}

/** `grep -H` of /proc/sys/net/ipv6/conf/<dev>/disable_ipv6: device -> whether IPv6 is off on it. */
export function parseDisableIpv6(s: Section | undefined): Record<string, boolean> {
  return Object.fromEntries((s?.out ?? '').split('\n').flatMap((l) => {
    const m = /^\/proc\/sys\/net\/ipv6\/conf\/([^/]+)\/disable_ipv6:([01])$/.exec(l.trim());
    return m ? [[m[1]!, m[2] === '1'] as const] : [];
  }));
}

export function parseGatewayProbe(stdout: string): GatewayState {
  const s = readSections(stdout);
  const addr = s.get('addr');
  if (!addr || addr.rc !== 0) throw new HostwireError('command-failed', `ip -j addr failed: ${addr?.out.trim() ?? 'no output'}`);
  const boot = (s.get('boot')?.out ?? '').split('\n').map((l) => l.trim());
  return {
    machineId: (s.get('machine-id')?.out ?? '').trim(),
    ...parseOvs(s),
    links: parseLinks(addr),
    routes: parseMainRoutes(s),
    otherRoutes: [...otherTableRoutes(s.get('route4-all'), 4), ...otherTableRoutes(s.get('route6-all'), 6)],
    ...(s.get('route-lock') ? { lockedRoutes: parseLockedRoutes(s.get('route-lock')) } : {}),
    rules: [...parseRules(s.get('rule4'), 4), ...parseRules(s.get('rule6'), 6)],
    files: parseFiles(s.get('files')?.out ?? ''),
    nm: parseNm(s.get('nm')),
    nmDhcp6: parseNmDhcp6(s.get('dhcp6')),
    ...(s.get('ifupdown') ? { ifupdown: parseIfupdown(s.get('ifupdown')) } : {}),
    ovsKernel: parseOvsKernel(s.get('kmod')),
    kernelIpv6: s.get('ipv6')?.out.trim().split('\n')[0] !== 'off',
    disableIpv6: parseDisableIpv6(s.get('ipv6')),
    nftTables: (s.get('nft')?.out ?? '').split('\n').flatMap((l) => /^table netdev (\S+)/.exec(l.trim())?.[1] ?? []),
    bootUnitEnabled: boot[0] === 'enabled',
    scriptSha: /^[0-9a-f]{64}$/.test(boot[1] ?? '') ? boot[1]! : '',
    pending: parsePending(s.get('pending')),
  };
}
