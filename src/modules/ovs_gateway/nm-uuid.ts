// The nm backend's profiles have fixed UUIDs derived from their names (its own profiles are known by them).
import { createHash } from 'node:crypto';

/**
 * A fixed UUID per profile name: a port's children name it as their master by UUID. NM 1.42 reads a
 * `connection.master` that is not a UUID as an interface name: `master ovs-port-phys0` failed on a lab host
 * with the plugin ("Can not find a master for ovs-if-phys0: Master connection not found or invalid").
 */
export function nmUuid(conName: string): string {
  const h = createHash('sha256').update(`hostwire:configure_ovs:${conName}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
