// What `--check` must leave untouched: a hash of /etc and the network state of each host,
// read in one exec. Components are compared separately so a failure says what moved.
import { createHash } from 'node:crypto';
import { buildBatch, splitBatch } from '../facts/index.js';
import type { Transport } from '../transports/transport.js';

const PARTS: Record<string, string> = {
  etc: 'find /etc -xdev \\( -type f -o -type l \\) -not -name "*.lock" -print0 | sort -z | xargs -0 sha256sum 2>/dev/null; find /etc -xdev -printf "%p %m %u %g\\n" | sort',
  addr: 'ip -j addr',
  route: 'ip -j route show table all',
  link: 'ip -j link',
  ovs: 'command -v ovs-vsctl >/dev/null && ovs-vsctl --timeout=5 show || true',
  nft: 'command -v nft >/dev/null && nft list ruleset || true',
};

export type Fingerprint = Record<string, string>;

export async function fingerprintHost(t: Transport): Promise<Fingerprint> {
  const r = await t.exec(buildBatch(Object.entries(PARTS).map(([id, command]) => ({ id, command }))));
  const parts = splitBatch(r.stdout);
  const out: Fingerprint = {};
  for (const id of Object.keys(PARTS)) {
    out[id] = createHash('sha256').update(normalise(id, parts.get(id)?.stdout ?? '')).digest('hex').slice(0, 16);
  }
  return out;
}

export function fingerprintDiff(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys(before).filter((k) => before[k] !== after[k]);
}

/** DHCP lease lifetimes count down between two readings: they are time, not state. */
function normalise(id: string, text: string): string {
  if (id !== 'addr') return text;
  try {
    const links = JSON.parse(text) as { addr_info?: Record<string, unknown>[] }[];
    for (const l of links) for (const a of l.addr_info ?? []) { delete a.valid_life_time; delete a.preferred_life_time; }
    return JSON.stringify(links);
  } catch {
    return text;
  }
}
