// Each lab gets a /24 derived from its name (stable across runs), skipping subnets other labs on the
// machine hold. The lab network lives in its own namespace, so it never meets the machine's routes.
import { createHash } from 'node:crypto';

export interface LabSubnet {
  /** e.g. 10.142.7.0/24 */
  cidr: string;
  /** .1, held by the lab bridge */
  gateway: string;
  prefix: string;
}

const SLOTS = 100 * 256; // 10.100.0.0 - 10.199.255.0

function slotToSubnet(slot: number): LabSubnet {
  const prefix = `10.${100 + Math.floor(slot / 256)}.${slot % 256}`;
  return { cidr: `${prefix}.0/24`, gateway: `${prefix}.1`, prefix };
}

export function allocateSubnet(lab: string, usedCidrs: Iterable<string>): LabSubnet {
  const used = new Set(usedCidrs);
  const h = createHash('sha256').update(lab).digest();
  const start = h.readUInt32BE(0) % SLOTS;
  for (let i = 0; i < SLOTS; i++) {
    const s = slotToSubnet((start + i) % SLOTS);
    if (!used.has(s.cidr)) return s;
  }
  throw new Error('no free lab subnet left');
}

/** Hosts are .11, .12, ... so .2-.10 stay free for VIPs in scenarios. */
export const hostIp = (subnet: LabSubnet, index: number): string => `${subnet.prefix}.${10 + index}`;
