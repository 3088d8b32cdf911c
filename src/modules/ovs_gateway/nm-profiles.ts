// The NetworkManager backend (where NM's OVS plugin exists, as on RHEL): MCO's profile set as
// nmcli commands, all with `save no` (in /run: a power cut cannot leave half a config in /etc).
// The commands become <bridge>.nm (a small sh script: `up` creates and activates, `down` deletes)
// that the host script runs inside the same commit-confirmed transaction.
import { shellJoin } from '../../transports/quote.js';
import type { BridgeEnv, UplinkConfig } from './env.js';

export interface NmNames { bridge: string; portBridge: string; portPhys: string; ifPhys: string; ifBridge: string }

/** MCO's names: br-ex uses phys0, the extra bridge phys1. */
export function nmNames(bridge: string, primary: boolean): NmNames {
  const n = primary ? 0 : 1;
  return { bridge, portBridge: `ovs-port-${bridge}`, portPhys: `ovs-port-phys${n}`, ifPhys: `ovs-if-phys${n}`, ifBridge: `ovs-if-${bridge}` };
}

const add = (words: string[]) => shellJoin(['nmcli', 'connection', 'add', ...words, 'save', 'no']);

/** The `up` commands (pure; unit-tested against recorded nmcli behaviour). */
export function planNmUp(u: UplinkConfig, e: BridgeEnv, primary = e.metric === 48): string[] {
  const n = nmNames(e.bridge, primary);
  const v4 = u.addrs.filter((a) => !a.includes(':'));
  const v6 = u.addrs.filter((a) => a.includes(':'));
  const gw4 = / via (\S+)/.exec(e.routes.find((r) => r.startsWith('default ')) ?? '')?.[1];
  const ip4 = e.method === 'dhcp'
    ? ['ipv4.method', 'auto', 'ipv4.dhcp-client-id', 'mac']
    : v4.length ? ['ipv4.method', 'manual', 'ipv4.addresses', v4.join(','), ...(gw4 ? ['ipv4.gateway', gw4] : [])] : ['ipv4.method', 'disabled'];
  const ip6 = v6.length ? ['ipv6.method', 'manual', 'ipv6.addresses', v6.join(',')] : ['ipv6.method', 'ignore'];
  return [
    add(['type', 'ovs-bridge', 'con-name', n.bridge, 'connection.interface-name', e.bridge, 'ovs-bridge.datapath-type', e.datapath, '802-3-ethernet.mtu', String(e.mtu)]),
    add(['type', 'ovs-port', 'con-name', n.portBridge, 'connection.interface-name', e.bridge, 'connection.master', e.bridge, 'connection.slave-type', 'ovs-bridge']),
    add(['type', 'ovs-port', 'con-name', n.portPhys, 'connection.interface-name', u.iface, 'connection.master', e.bridge, 'connection.slave-type', 'ovs-bridge']),
    add(['type', '802-3-ethernet', 'con-name', n.ifPhys, 'connection.interface-name', u.iface, 'connection.master', n.portPhys, 'connection.slave-type', 'ovs-port',
      'connection.autoconnect-priority', '100', '802-3-ethernet.mtu', String(e.mtu), '802-3-ethernet.cloned-mac-address', e.mac]),
    `${add(['type', 'ovs-interface', 'con-name', n.ifBridge, 'connection.interface-name', e.bridge, 'connection.master', n.portBridge, 'connection.slave-type', 'ovs-port',
      '802-3-ethernet.mtu', String(e.mtu), '802-3-ethernet.cloned-mac-address', e.mac, ...ip4, ...ip6,
      'ipv4.may-fail', 'no', 'ipv4.route-metric', String(e.metric), 'ipv6.route-metric', String(e.metric)]).replace(/ save no$/, '')} \${DNS:+ipv4.dns "$DNS"} save no`,
    shellJoin(['nmcli', '--wait', '60', 'connection', 'up', n.ifPhys]),
    shellJoin(['nmcli', '--wait', '60', 'connection', 'up', n.ifBridge]),
  ];
}

export function planNmDown(e: BridgeEnv, primary = e.metric === 48): string[] {
  const n = nmNames(e.bridge, primary);
  return [`nmcli connection delete ${shellJoin([n.ifBridge, n.ifPhys, n.portPhys, n.portBridge, n.bridge])} 2>/dev/null || true`];
}

/** The staged <bridge>.nm script: `up` copies the old profile's DNS and activates, `down` deletes. */
export function planNmProfiles(u: UplinkConfig, e: BridgeEnv, primary: boolean): string[] {
  const dns = u.nmConn ? [`DNS=$(nmcli -g ipv4.dns connection show uuid ${shellJoin([u.nmConn])} 2>/dev/null | tr -d '\\\\')`] : ['DNS='];
  return [
    'set -e',
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
