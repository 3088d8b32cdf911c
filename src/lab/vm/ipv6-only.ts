// The lab's IPv6-only marker on a VM host (IPV6_ONLY_MARKER, network.ts): its disk is a qcow2 overlay the
// machine cannot read, so the marker is read over SSH before a power cycle - at the lab address, then at every
// other address the lab's known_hosts gives the host's key (an IPv6-only host answers only at its own).
import { readFile } from 'node:fs/promises';
import { IPV6_ONLY_MARKER, MARKER_MAX_BYTES, parseIpv6OnlyMarker } from '../network.js';
import type { HostState, LabState } from '../state.js';
import { vmExec } from './exec.js';

/** `known_hosts` text -> the host's lab address first, then the other addresses listed with the same key. */
export function addressesOfKey(knownHosts: string, ip: string): string[] {
  const lines = knownHosts.split('\n').map((l) => l.trim().split(/\s+/)).filter((w) => w.length >= 3);
  const key = lines.find((w) => w[0] === ip)?.slice(1, 3).join(' ');
  const others = key ? lines.filter((w) => w[0] !== ip && w.slice(1, 3).join(' ') === key).map((w) => w[0]!) : [];
  return [ip, ...new Set(others)];
}

/** The VM host's marker address, or undefined without one (or when no address answers: a hung host is cycled as it is). */
export async function vmIpv6OnlyAddress(state: LabState, host: HostState): Promise<string | undefined> {
  const known = await readFile(state.knownHostsFile, 'utf8').catch(() => '');
  for (const ip of addressesOfKey(known, host.ip)) {
    const r = await vmExec(state, { ...host, ip }, `head -c ${MARKER_MAX_BYTES} ${IPV6_ONLY_MARKER} 2>/dev/null; true`, 45_000);
    if (r.code === 0) return parseIpv6OnlyMarker(host.name, r.stdout);
  }
  return undefined;
}
