// The state files the host script sources: <bridge>.env (desired bridge, re-applied at boot) and
// <bridge>.prev (the uplink as it was before the move, restored on rollback/removal).
// KEY='value' lines in a fixed order, so equal state renders to equal text.
import { shellQuote } from '../../transports/quote.js';
import { deviceEnvPairs, deviceFromEnv } from './device-env.js';
import type { UplinkDevice } from './uplink-device.js';
import { ipv6EnvPairs, ipv6FromEnv, type Ipv6Auto } from './ipv6-auto.js';
import { parseRouteWords } from './uplink-routes.js';
import { ifupdownEnvPairs, ifupdownFromEnv, type IfupdownLease } from './ifupdown.js';

export interface UplinkConfig {
  iface: string;
  mac: string;
  mtu: number;
  method: 'static' | 'dhcp';
  /** Static CIDRs, v4 then v6, global scope only (a DHCP uplink: its static IPv6 ones beside the lease). */
  addrs: string[];
  /** `ip route` arguments without `dev` (default and static routes; kernel ones come back with the addresses). */
  routes: string[];
  /** The default gateways (v4 first). */
  gateways: string[];
  /** NetworkManager connection active on the NIC (reactivated on restore), if NM managed it. */
  nmConn?: string;
  /** A bond or a VLAN (absent: a NIC): how to make it again. */
  device?: UplinkDevice;
  /** IPv6 by router advertisements/DHCPv6 (absent: static IPv6 only, or none). */
  v6?: Ipv6Auto;
  /** nm backend: the uplink's devices (bond ports...) NM did not manage before the move (unmanaged again on rollback). */
  nmUnmanaged?: string[];
  /** The lease was ifupdown's dhclient's (ifupdown.ts). */
  ifupdown?: IfupdownLease;
}

export interface BridgeEnv {
  bridge: string;
  uplink: string;
  mac: string;
  mtu: number;
  method: 'static' | 'dhcp';
  addrs: string[];
  routes: string[];
  metric: number;
  datapath: string;
  dropIngress: boolean;
  check: string[];
  backend: 'ovs' | 'nm';
  device?: UplinkDevice;
  v6?: Ipv6Auto;
  ifupdown?: IfupdownLease;
}

const line = (k: string, v: string | number) => `${k}=${shellQuote(String(v))}\n`;

export function renderEnv(e: BridgeEnv): string {
  return '# hostwire configure_ovs: desired state of this bridge (re-applied at boot)\n' + [
    line('BRIDGE', e.bridge), line('UPLINK', e.uplink), line('MAC', e.mac), line('MTU', e.mtu), line('METHOD', e.method),
    line('ADDRS', e.addrs.join(' ')), line('ROUTES', e.routes.join(';')), line('METRIC', e.metric), line('DATAPATH', e.datapath),
    line('DROP_INGRESS', e.dropIngress ? 1 : 0), line('CHECK', e.check.join(' ')), line('BACKEND', e.backend),
    ...deviceEnvPairs(e.device).map(([k, v]) => line(k, v)), ...ipv6EnvPairs(e.v6).map(([k, v]) => line(k, v)),
    ...ifupdownEnvPairs(e.ifupdown).map(([k, v]) => line(k, v)),
  ].join('');
}

export function renderPrev(u: UplinkConfig): string {
  return '# hostwire configure_ovs: the uplink before the move (restored on rollback or removal)\n' + [
    line('IFACE', u.iface), line('MAC', u.mac), line('MTU', u.mtu), line('METHOD', u.method), line('ADDRS', u.addrs.join(' ')),
    line('ROUTES', u.routes.join(';')), line('GATEWAYS', u.gateways.join(' ')), line('NMCONN', u.nmConn ?? ''),
    ...deviceEnvPairs(u.device).map(([k, v]) => line(k, v)), ...ipv6EnvPairs(u.v6).map(([k, v]) => line(k, v)),
    ...(u.nmUnmanaged?.length ? [line('NM_UNMANAGED', u.nmUnmanaged.join(' '))] : []),
    ...ifupdownEnvPairs(u.ifupdown).map(([k, v]) => line(k, v)),
  ].join('');
}

/** Reads KEY='value' lines as written by renderEnv/renderPrev (shellQuote's quoting only). */
export function parseEnvText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(raw.trim());
    if (!m) continue;
    const v = m[2]!;
    out[m[1]!] = v.startsWith("'") ? v.slice(1, -1).replaceAll(`'\\''`, "'") : v;
  }
  return out;
}

export function parsePrev(text: string): UplinkConfig | undefined {
  const v = parseEnvText(text);
  if (!v.IFACE || !v.MAC) return undefined;
  const list = (s: string | undefined, sep: string) => (s ?? '').split(sep).map((x) => x.trim()).filter(Boolean);
  return {
    iface: v.IFACE, mac: v.MAC, mtu: Number(v.MTU) || 1500, method: v.METHOD === 'dhcp' ? 'dhcp' : 'static',
    // The saved routes are the host's file: each checked again before it reaches a command line.
    addrs: list(v.ADDRS, ' '), routes: list(v.ROUTES, ';').filter((r) => parseRouteWords(r)), gateways: list(v.GATEWAYS, ' '),
    ...(v.NMCONN ? { nmConn: v.NMCONN } : {}),
    ...(deviceFromEnv(v) ? { device: deviceFromEnv(v)! } : {}),
    ...(ipv6FromEnv(v) ? { v6: ipv6FromEnv(v)! } : {}),
    ...(v.NM_UNMANAGED ? { nmUnmanaged: list(v.NM_UNMANAGED, ' ') } : {}),
    ...(ifupdownFromEnv(v) ? { ifupdown: ifupdownFromEnv(v)! } : {}),
  };
}
