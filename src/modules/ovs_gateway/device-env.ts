// A bond/VLAN uplink in the host script's state files (<bridge>.env, <bridge>.prev): what the boot oneshot
// and the rollback need to make the device again. A plain NIC adds no lines (files of earlier runs stay equal).
import type { UplinkDevice } from './uplink-device.js';

/** KEY/value pairs (KIND, BOND_OPTS, MEMBERS, VLAN_*, VLAN_PARENT_NM) for a bond or VLAN uplink; none for a NIC. */
export function deviceEnvPairs(d: UplinkDevice | undefined): [string, string][] {
  if (!d || d.kind === 'nic') return [];
  if (d.kind === 'bond') return [['KIND', 'bond'], ['BOND_OPTS', d.options.join(' ')], ['MEMBERS', d.members.join(' ')]];
  return [['KIND', 'vlan'], ['VLAN_ID', String(d.id)], ['VLAN_PROTO', d.protocol], ['VLAN_PARENT', d.parent],
    ['BOND_OPTS', d.parentBond?.options.join(' ') ?? ''], ['MEMBERS', d.parentBond?.members.join(' ') ?? ''],
    // The bond's own NM profile (the nm backend leaves such a bond as it is): only when there is one, so the
    // files of earlier moves stay equal.
    ...(d.parentNmConn ? [['VLAN_PARENT_NM', d.parentNmConn] as [string, string]] : [])];
}

/** The device back from parsed KEY=value pairs (undefined: a NIC). */
export function deviceFromEnv(v: Record<string, string>): UplinkDevice | undefined {
  const words = (s: string | undefined) => (s ?? '').split(' ').filter(Boolean);
  if (v.KIND === 'bond') return { kind: 'bond', options: words(v.BOND_OPTS), members: words(v.MEMBERS) };
  if (v.KIND === 'vlan' && v.VLAN_PARENT && v.VLAN_ID) {
    const bond = words(v.BOND_OPTS);
    return { kind: 'vlan', id: Number(v.VLAN_ID), protocol: v.VLAN_PROTO || '802.1Q', parent: v.VLAN_PARENT,
      ...(bond.length ? { parentBond: { options: bond, members: words(v.MEMBERS) } } : {}), ...(v.VLAN_PARENT_NM ? { parentNmConn: v.VLAN_PARENT_NM } : {}) };
  }
  return undefined;
}
