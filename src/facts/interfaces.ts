// Interfaces, MTUs and addresses from `ip -j addr` (iproute2 JSON).
import { ProbeParseError } from '../errors.js';
import type { FactProbe } from './types.js';
import type { ProbeOutput } from '../probe/types.js';
import { parseToolJson } from '../probe/tool-json.js';

export interface Ipv4Address { address: string; prefix: number; netmask: string; network: string; broadcast?: string }
export interface Ipv6Address { address: string; prefix: number; scope: string }

export interface InterfaceFacts {
  device: string;
  mtu: number;
  /** Administratively up (the UP flag). */
  active: boolean;
  operstate: string;
  macaddress?: string;
  /** iproute2's link_type: ether, loopback, none ... */
  type: string;
  /** Master device (bridge, bond, OVS system) when enslaved. */
  master?: string;
  /** The PROMISC flag. */
  promisc?: boolean;
  ipv4: Ipv4Address[];
  ipv6: Ipv6Address[];
}

interface IpAddrJson {
  ifname: string; mtu: number; flags?: string[]; operstate?: string; link_type?: string; address?: string; master?: string;
  addr_info?: { family: string; local: string; prefixlen: number; broadcast?: string; scope?: string }[];
}

export function netmaskOf(prefix: number): string {
  const bits = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [24, 16, 8, 0].map((s) => (bits >>> s) & 255).join('.');
}

function networkOf(address: string, prefix: number): string {
  const mask = netmaskOf(prefix).split('.').map(Number);
  return address.split('.').map((o, i) => Number(o) & mask[i]!).join('.');
}

export function parseIpAddr(out: ProbeOutput): InterfaceFacts[] {
  if (out.stdout.trim() === '') throw new ProbeParseError(`ip -j addr printed nothing (rc=${out.rc})`, out.stdout);
  const data = parseToolJson<IpAddrJson[]>(out.stdout, 'ip -j addr', ['ifname']);
  if (!Array.isArray(data)) throw new ProbeParseError('ip -j addr: expected a JSON array', out.stdout);
  return data.map((l) => {
    const addrs = l.addr_info ?? [];
    return {
      device: l.ifname,
      mtu: l.mtu,
      active: (l.flags ?? []).includes('UP'),
      operstate: l.operstate ?? 'UNKNOWN',
      macaddress: l.link_type === 'ether' ? l.address : undefined,
      type: l.link_type ?? 'unknown',
      master: l.master,
      promisc: (l.flags ?? []).includes('PROMISC'),
      ipv4: addrs.filter((a) => a.family === 'inet').map((a) => ({
        address: a.local, prefix: a.prefixlen, netmask: netmaskOf(a.prefixlen), network: networkOf(a.local, a.prefixlen),
        ...(a.broadcast ? { broadcast: a.broadcast } : {}),
      })),
      ipv6: addrs.filter((a) => a.family === 'inet6').map((a) => ({ address: a.local, prefix: a.prefixlen, scope: a.scope ?? 'global' })),
    };
  });
}

export const interfacesFact: FactProbe<InterfaceFacts[]> = { id: 'ip_addr', command: 'ip -j addr', parse: parseIpAddr };
