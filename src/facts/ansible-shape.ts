// Facts in the shape Ansible's Linux network collector gives them (module_utils/facts/network/linux.py,
// ansible-core 2.14): ansible_<iface> with its primary ipv4 and its ipv4_secondaries, prefixes as
// strings; ansible_default_ipv4/6 as the default route's interface with its
// first address; the all_*_addresses lists without loopback addresses.
import type { DefaultRoute } from './default-routes.js';
import type { InterfaceFacts, Ipv4Address } from './interfaces.js';

const v4 = (a: Ipv4Address) => ({ address: a.address, broadcast: a.broadcast ?? '', netmask: a.netmask, network: a.network, prefix: String(a.prefix) });

/** ansible_<iface>. */
export function ansibleInterface(i: InterfaceFacts): Record<string, unknown> {
  const [primary, ...secondaries] = i.ipv4;
  return {
    active: i.active,
    device: i.device,
    ...(primary ? { ipv4: v4(primary) } : {}),
    ...(secondaries.length ? { ipv4_secondaries: secondaries.map(v4) } : {}),
    ...(i.ipv6.length ? { ipv6: i.ipv6.map((a) => ({ address: a.address, prefix: String(a.prefix), scope: a.scope })) } : {}),
    ...(i.macaddress ? { macaddress: i.macaddress } : {}),
    mtu: i.mtu,
    promisc: Boolean(i.promisc),
    type: i.type,
  };
}

/** ansible_default_ipv4 / ansible_default_ipv6: {} without a default route. */
export function ansibleDefault(routes: DefaultRoute[], ifaces: Map<string, InterfaceFacts>, family: 4 | 6): Record<string, unknown> {
  const r = routes[0];
  if (!r) return {};
  const i = ifaces.get(r.interface);
  const common = {
    interface: r.interface,
    ...(r.gateway ? { gateway: r.gateway } : {}),
    ...(i ? { ...(i.macaddress ? { macaddress: i.macaddress } : {}), mtu: i.mtu, type: i.type } : {}),
  };
  if (family === 4) {
    const a = i?.ipv4[0];
    return { ...common, ...(a ? { ...v4(a), alias: r.interface } : {}) };
  }
  const a = i?.ipv6.find((x) => x.scope === 'global') ?? i?.ipv6[0];
  return { ...common, ...(a ? { address: a.address, prefix: String(a.prefix), scope: a.scope } : {}) };
}

export const allIpv4 = (ifaces: InterfaceFacts[]) => ifaces.flatMap((i) => i.ipv4.map((a) => a.address)).filter((a) => !a.startsWith('127.'));
export const allIpv6 = (ifaces: InterfaceFacts[]) => ifaces.flatMap((i) => i.ipv6.map((a) => a.address)).filter((a) => a !== '::1');
