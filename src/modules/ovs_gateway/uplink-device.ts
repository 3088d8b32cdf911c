// What kind of device the uplink is - a NIC, a bond, a VLAN on a NIC or on a bond - and what it takes to
// make it again: the bond moves onto br-ex as one OVS port whose members stay bonded in the kernel (as
// configure-ovs does), so its mode and options must be recorded exactly as the kernel reports them for the
// boot oneshot and the rollback to re-create it when it is gone (NetworkManager leaves it unmanaged).
import { HostwireError } from '../../errors.js';
import type { GatewayState, Link } from './parse.js';
import { nmUuid } from './nm-uuid.js';

export interface BondSpec {
  /** `ip link add NAME type bond ...` words: the mode first, then every option that is not the kernel's default. */
  options: string[];
  /** Ports in the order the kernel lists them (their interface index). */
  members: string[];
}

export type UplinkDevice =
  | { kind: 'nic' }
  | ({ kind: 'bond' } & BondSpec)
  | { kind: 'vlan'; id: number; protocol: string; parent: string; parentBond?: BondSpec; parentNmConn?: string };

/** The bond the uplink's failover rides on - the uplink itself, or a VLAN's parent - and its mode (`options[1]`). */
export function uplinkBond(iface: string, d: UplinkDevice | undefined): { name: string; mode: string } | undefined {
  if (d?.kind === 'bond') return { name: iface, mode: d.options[1] ?? '' };
  return d?.kind === 'vlan' && d.parentBond ? { name: d.parent, mode: d.parentBond.options[1] ?? '' } : undefined;
}

/**
 * Kernel (ip -d -j) bond attribute -> `ip link add type bond` option and its default (the default is
 * left out: a mode-specific option at its default may be refused under another mode). Runtime state
 * (active_slave, ad_info) is not configuration.
 */
const BOND_OPTIONS: [string, string, string][] = [
  ['miimon', 'miimon', '0'], ['updelay', 'updelay', '0'], ['downdelay', 'downdelay', '0'], ['peer_notify_delay', 'peer_notify_delay', '0'],
  ['use_carrier', 'use_carrier', '1'], ['arp_interval', 'arp_interval', '0'], ['arp_validate', 'arp_validate', 'none'],
  ['arp_all_targets', 'arp_all_targets', 'any'], ['primary', 'primary', ''], ['primary_reselect', 'primary_reselect', 'always'],
  ['fail_over_mac', 'fail_over_mac', 'none'], ['xmit_hash_policy', 'xmit_hash_policy', 'layer2'], ['resend_igmp', 'resend_igmp', '1'],
  ['num_peer_notif', 'num_grat_arp', '1'], ['all_slaves_active', 'all_slaves_active', '0'], ['min_links', 'min_links', '0'],
  ['lp_interval', 'lp_interval', '1'], ['packets_per_slave', 'packets_per_slave', '1'], ['ad_lacp_active', 'lacp_active', 'on'],
  ['ad_lacp_rate', 'lacp_rate', 'slow'], ['ad_select', 'ad_select', 'stable'], ['tlb_dynamic_lb', 'tlb_dynamic_lb', '1'],
  ['ad_actor_sys_prio', 'ad_actor_sys_prio', '65535'], ['ad_user_port_key', 'ad_user_port_key', '0'],
];

// `+` too: the kernel's xmit_hash_policy values layer2+3, layer3+4, encap2+3, encap3+4, vlan+srcmac (LACP bonds
// mostly use layer3+4). Still nothing the host script's unquoted $BOND_OPTS would split or glob.
const word = /^[A-Za-z0-9_.:+-]{1,64}$/;

/** A bond's `ip link add` words from the kernel's report; refuses anything that is not a plain word. */
export function bondOptions(bond: Link): string[] {
  const info = bond.info ?? {};
  const mode = String(info.mode ?? '');
  if (!word.test(mode)) throw new HostwireError('command-failed', `bond ${bond.name}: the kernel reports no mode (ip -d link show ${bond.name})`);
  const out = ['mode', mode];
  for (const [key, option, def] of BOND_OPTIONS) {
    const v = info[key];
    if (v === undefined || v === null || String(v) === def) continue;
    const text = String(v);
    if (!word.test(text)) throw new HostwireError('command-failed', `bond ${bond.name}: option ${key} "${text.slice(0, 40)}" is not a plain value`);
    out.push(option, text);
  }
  const targets = info.arp_ip_target;
  if (Array.isArray(targets) && targets.length) out.push('arp_ip_target', targets.map(String).filter((t) => word.test(t)).join(','));
  return out;
}

export const bondMembers = (s: GatewayState, bond: string): string[] => s.links.filter((l) => l.master === bond && l.slaveKind === 'bond').map((l) => l.name);

/**
 * The profile NetworkManager holds `dev` under, when it is NM's own (an installer's bond profile): not one NM
 * took over from outside ("connected (externally)"), nor the nm backend's own ovs-parent-<bond> (a kernel-made bond it
 * moved: its UUID is fixed by its name).
 */
function nmOwnProfile(s: GatewayState, dev: string): string | undefined {
  const nm = s.nm.devices.find((x) => x.device === dev);
  if (!nm?.conUuid || /externally|unmanaged|unavailable|disconnected/.test(nm.state)) return undefined;
  return nm.conUuid === nmUuid(`ovs-parent-${dev}`) ? undefined : nm.conUuid;
}

export function uplinkDevice(s: GatewayState, iface: string): UplinkDevice {
  const link = s.links.find((l) => l.name === iface);
  if (!link) return { kind: 'nic' };
  const bondSpec = (b: Link): BondSpec => ({ options: bondOptions(b), members: bondMembers(s, b.name) });
  if (link.kind === 'bond') return { kind: 'bond', ...bondSpec(link) };
  if (link.kind === 'vlan') {
    const id = Number(link.info?.id);
    const protocol = String(link.info?.protocol ?? '802.1Q');
    if (!link.parent || !Number.isInteger(id) || !/^802\.1(Q|ad)$/i.test(protocol)) {
      throw new HostwireError('command-failed', `VLAN ${iface}: cannot read its parent, id and protocol (ip -d link show ${iface})`);
    }
    const parent = s.links.find((l) => l.name === link.parent);
    const nmConn = parent?.kind === 'bond' ? nmOwnProfile(s, link.parent) : undefined;
    return { kind: 'vlan', id, protocol, parent: link.parent, ...(parent?.kind === 'bond' ? { parentBond: bondSpec(parent) } : {}), ...(nmConn ? { parentNmConn: nmConn } : {}) };
  }
  return { kind: 'nic' };
}

const refuse = (message: string) => new HostwireError('bad-input', `ovs_gateway: ${message}`);

/** A bond with a port down, or a VLAN whose parent (or its bond's port) has no carrier, is refused before the move. */
export function assertUplinkCarrier(s: GatewayState, iface: string, device: UplinkDevice): void {
  const link = (n: string) => s.links.find((l) => l.name === n);
  const down = (n: string) => { const l = link(n); return !l || !l.up || l.carrier === false; };
  const bondCheck = (bond: string, spec: BondSpec, what: string): void => {
    if (spec.members.length === 0) throw refuse(`${what} bond ${bond} has no ports: moving it onto the bridge would cut the host off`);
    const bad = spec.members.filter(down);
    if (bad.length) {
      throw refuse(`${what} bond ${bond}: port${bad.length > 1 ? 's' : ''} ${bad.join(', ')} ${bad.length > 1 ? 'are' : 'is'} down (no carrier); ` +
        'the move would lose the bond\'s redundancy while the host depends on it - fix the port (or take it out of the bond) first');
    }
  };
  if (device.kind === 'bond') bondCheck(iface, device, 'the uplink');
  if (device.kind === 'vlan') {
    if (down(device.parent)) throw refuse(`the uplink ${iface} is a VLAN on ${device.parent}, which is down or has no carrier: the move would strand the host`);
    if (device.parentBond) bondCheck(device.parent, device.parentBond, `VLAN ${iface}'s parent`);
  }
}
