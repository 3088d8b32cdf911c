// A VM host's NICs beyond eth0 (bonds and VLANs need several): each is either a tap on the lab bridge
// or one end of a point-to-point wire to another VM's NIC. A Linux bridge never forwards LACP (802.3ad
// slow-protocol frames are link-local and the bridge cannot be told to pass them), and the machine's
// kernel has no bonding or VLAN module for a far end in the lab namespace, so a LACP partner is another
// VM at the other end of a wire: qemu UDP sockets on the lab namespace's loopback, frames passed as they are.
import { BadInputError } from '../../errors.js';

export interface VmNic {
  /** Guest name (eth0, eth1, ... in PCI order: the kernel command line has net.ifnames=0). */
  name: string;
  /** qemu's netdev id (`set_link` takes it). */
  id: string;
  mac: string;
  /** On the lab bridge through this tap (in the lab namespace)... */
  tap?: string;
  /** ...or wired to another VM's NIC: UDP ports on 127.0.0.1 in the lab namespace. */
  wire?: { localPort: number; remotePort: number; peer: string };
}

/** One end of a wire: host index (1-based, as in `<lab>-<n>`) and NIC index (1 = eth1). */
export interface WireEnd { host: number; nic: number }
export type Wire = [WireEnd, WireEnd];

export const MAX_NICS = 8;

/** Unique inside the lab namespace; 15 characters at most (`tap50n7`). */
export const extraTap = (hostIndex: number, nic: number): string => `tap${hostIndex}n${nic}`;
const wirePort = (e: WireEnd): number => 40000 + e.host * 10 + e.nic;

/** eth0's MAC with the NIC index in the fourth octet: 52:54:0k:..., unique on the bridge and across labs. */
export function nicMac(eth0Mac: string, nic: number): string {
  const o = eth0Mac.split(':');
  o[2] = nic.toString(16).padStart(2, '0');
  return o.join(':');
}

/** `2:1=3:1` (host 2's eth1 to host 3's eth1) -> a Wire. */
export function parseWire(text: string): Wire {
  const m = /^(\d+):(\d+)=(\d+):(\d+)$/.exec(text.trim());
  if (!m) throw new BadInputError(`--wire ${text}: expected HOST:NIC=HOST:NIC with host and NIC numbers, like 1:2=2:2 (host 1's eth2 to host 2's eth2)`);
  return [{ host: Number(m[1]), nic: Number(m[2]) }, { host: Number(m[3]), nic: Number(m[4]) }];
}

/** Checked before anything is built: NIC counts, and wires between existing extra NICs of two VM hosts. */
export function checkNics(nics: number | undefined, wires: readonly Wire[], kinds: readonly string[]): void {
  if (nics !== undefined && (!Number.isInteger(nics) || nics < 1 || nics > MAX_NICS)) {
    throw new BadInputError(`--vm-nics ${nics}: expected a whole number from 1 to ${MAX_NICS}`);
  }
  const used = new Set<string>();
  for (const [i, wire] of wires.entries()) {
    const where = `wires[${i}] ${wire.map((e) => `${e.host}:${e.nic}`).join('=')}`;
    if (wire[0].host === wire[1].host) throw new BadInputError(`${where}: both ends on host ${wire[0].host}; a wire joins two VM hosts`);
    for (const e of wire) {
      if (kinds[e.host - 1] !== 'vm') throw new BadInputError(`${where}: host ${e.host} is not a VM host (VM hosts: ${kinds.flatMap((k, j) => (k === 'vm' ? [j + 1] : [])).join(', ') || 'none'})`);
      if (!Number.isInteger(e.nic) || e.nic < 1 || e.nic >= (nics ?? 1)) {
        throw new BadInputError(`${where}: NIC ${e.nic} is not an extra NIC (eth1..eth${(nics ?? 1) - 1}); eth0 always stays on the lab bridge`);
      }
      const key = `${e.host}:${e.nic}`;
      if (used.has(key)) throw new BadInputError(`${where}: host ${e.host}'s eth${e.nic} is already wired`);
      used.add(key);
    }
  }
}

/** NICs eth1..eth<count-1> of the VM host `hostIndex` (eth0 is the host's main tap, kept as before). */
export function planExtraNics(hostIndex: number, count: number, eth0Mac: string, wires: readonly Wire[], hostName: (i: number) => string): VmNic[] {
  const nics: VmNic[] = [];
  for (let k = 1; k < count; k++) {
    const base = { name: `eth${k}`, id: `net${k}`, mac: nicMac(eth0Mac, k) };
    const wire = wires.find((w) => w.some((e) => e.host === hostIndex && e.nic === k));
    if (!wire) {
      nics.push({ ...base, tap: extraTap(hostIndex, k) });
      continue;
    }
    const [me, peer] = wire[0].host === hostIndex && wire[0].nic === k ? [wire[0], wire[1]] : [wire[1], wire[0]];
    nics.push({ ...base, wire: { localPort: wirePort(me), remotePort: wirePort(peer), peer: `${hostName(peer.host)}:eth${peer.nic}` } });
  }
  return nics;
}

/**
 * qemu's -netdev/-device pairs for the extra NICs (same options as eth0: no offloads reach the bridge). A
 * speed and duplex of their own: virtio reports "unknown" otherwise, and an 802.3ad bond then gives its
 * ports LACP key 0 and never aggregates with its partner (seen in the lab: partner MAC 00:00:00:00:00:00).
 */
export function nicArgs(nics: readonly VmNic[]): string[] {
  return nics.flatMap((n) => [
    '-netdev', n.tap
      ? `tap,id=${n.id},ifname=${n.tap},script=no,downscript=no,vnet_hdr=off`
      : `socket,id=${n.id},udp=127.0.0.1:${n.wire!.remotePort},localaddr=127.0.0.1:${n.wire!.localPort}`,
    '-device', `virtio-net-pci,netdev=${n.id},mac=${n.mac},speed=1000,duplex=full,romfile=`,
  ]);
}
