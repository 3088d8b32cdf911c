// Pure parsers for `ip -j -d link show` (recorded in cases/links.json).
import { parseIpJson } from '../kit/ip-json.js';

export interface LinkState {
  name: string;
  kind?: string;
  mtu: number;
  address?: string;
  up: boolean;
  /** Parent/peer device name (`link` in ip's JSON: veth peer, macvlan/vxlan lower device). */
  link?: string;
  data: Record<string, unknown>;
}

interface IpLinkJson {
  ifname: string;
  flags?: string[];
  mtu?: number;
  address?: string;
  link?: string;
  linkinfo?: { info_kind?: string; info_data?: Record<string, unknown> };
}


export function parseLinks(text: string): Map<string, LinkState> {
  const links = new Map<string, LinkState>();
  for (const l of parseIpJson<IpLinkJson>(text, 'ip -j -d link show')) {
    const data = l.linkinfo?.info_data ?? {};
    links.set(l.ifname, {
      name: l.ifname,
      kind: l.linkinfo?.info_kind,
      mtu: l.mtu ?? 0,
      address: l.address,
      up: (l.flags ?? []).includes('UP'),
      link: l.link ?? (typeof data.link === 'string' ? data.link : undefined),
      data,
    });
  }
  return links;
}
