// What `--check` must leave untouched: a hash of /etc and the network state of each host,
// read in one exec. Components are compared separately so a failure says what moved.
import { createHash } from 'node:crypto';
import { buildBatch, splitBatch } from '../probe/batch.js';
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

/**
 * What the kernel does on its own after a change is not a change by `--check`: DHCP lifetimes count
 * down, IPv6 link-local addresses finish duplicate address detection (tentative), a fresh bridge gains
 * carrier (linkdown). Those are dropped before hashing; configured state is kept.
 */
export function normalise(id: string, text: string): string {
  if (id !== 'addr' && id !== 'route') return text;
  try {
    const rows = JSON.parse(text) as Record<string, unknown>[];
    if (id === 'addr') {
      for (const l of rows) {
        delete l.operstate;
        l.addr_info = ((l.addr_info as Record<string, unknown>[] | undefined) ?? [])
          .filter((a) => !(a.family === 'inet6' && a.scope === 'link'))
          .map(({ valid_life_time: _v, preferred_life_time: _p, tentative: _t, ...rest }) => rest);
      }
      return JSON.stringify(rows);
    }
    const kernelV6 = (r: Record<string, unknown>) => /^(fe80|ff00)/.test(String(r.dst ?? ''));
    return JSON.stringify(rows.filter((r) => !kernelV6(r)).map((r) => ({ ...r, flags: ((r.flags as string[] | undefined) ?? []).filter((f) => f !== 'linkdown') })));
  } catch {
    return text;
  }
}
