// Pod MTU from the underlay MTU and the encapsulation. The overheads are the ones the reference systems
// subtract:
// - vxlan 50: flannel pkg/backend/vxlan/vxlan_network.go `encapOverhead = 50`, and OpenShift SDN's
//   "host MTU - 50" (outer Ethernet 14 + IPv4 20 + UDP 8 + VXLAN 8).
// - geneve 100: cluster-network-operator pkg/network/ovn_kubernetes.go `geneveOverhead = 100` (OVN-Kubernetes).
//   The wire needs less. On the lab (1500 underlay) 1442 was the largest geneve pod MTU that passed (58 bytes:
//   IPv4 20 + UDP 8 + Geneve 8 + OVN option 8 + Ethernet 14), and 1450 for vxlan. The 100 leaves room for more options.
// - ipsec +46: the same CNO file, `ipsecOverhead = 46 // Transport mode, AES-GCM`.
// - IPv6 underlay +20: a longer outer IP header (as Antrea's IPv6ExtraOverhead). Only for vxlan, because geneve's
//   100 already covers it.
// - host-gw / none: 0. The packets are routed, not wrapped.
import { SdnInputError } from './errors.js';

export type Encap = 'vxlan' | 'geneve' | 'host-gw' | 'none';

export const ENCAP_OVERHEAD: Record<Encap, number> = { vxlan: 50, geneve: 100, 'host-gw': 0, none: 0 };
export const IPSEC_OVERHEAD = 46;
export const IPV6_EXTRA = 20;
/** The smallest MTU an IPv4 interface may have (RFC 791: 68); IPv6 needs 1280. */
const MIN_MTU = { 4: 68, 6: 1280 } as const;

export interface MtuOptions {
  ipsec?: boolean;
  /** The tunnel endpoints talk IPv6. */
  ipv6Underlay?: boolean;
  /** The pods use IPv6 (then the result must be at least 1280). */
  ipv6Pods?: boolean;
}

export interface MtuResult {
  mtu: number;
  overhead: number;
  /** How the overhead was made up, for messages. */
  parts: string[];
}

export function podMtu(underlay: number, encap: Encap, o: MtuOptions = {}): MtuResult {
  if (!Number.isInteger(underlay) || underlay < 576 || underlay > 65535) throw new SdnInputError(`underlay MTU: expected an integer from 576 to 65535, got ${underlay}`);
  if (!(encap in ENCAP_OVERHEAD)) throw new SdnInputError(`encapsulation: expected vxlan, geneve, host-gw or none, got '${encap}'`);
  const parts = [`${encap} ${ENCAP_OVERHEAD[encap]}`];
  let overhead = ENCAP_OVERHEAD[encap];
  if (o.ipv6Underlay && encap === 'vxlan') {
    overhead += IPV6_EXTRA;
    parts.push(`IPv6 underlay ${IPV6_EXTRA}`);
  }
  if (o.ipsec) {
    if (encap === 'host-gw' || encap === 'none') throw new SdnInputError(`ipsec: encapsulation ${encap} has no tunnel to encrypt`);
    overhead += IPSEC_OVERHEAD;
    parts.push(`ipsec ${IPSEC_OVERHEAD}`);
  }
  const mtu = underlay - overhead;
  const min = MIN_MTU[o.ipv6Pods ? 6 : 4];
  if (mtu < min) throw new SdnInputError(`underlay MTU ${underlay} leaves ${mtu} for pods after ${parts.join(' + ')}; expected at least ${min}`);
  return { mtu, overhead, parts };
}
