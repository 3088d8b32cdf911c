// ip_addr: the addresses of one device. `exclusive` also removes every other global address
// (link-local and host-scope addresses are the kernel's and stay).
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { ifname } from '../kit/ifname.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { canonicalCidr, parseAddrs, type AddrEntry } from './parse.js';
import { ipAddrDoc } from './doc.js';

const cidr = z.string().refine((s) => {
  try {
    canonicalCidr(s);
    return true;
  } catch {
    return false;
  }
}, 'expected an IP address with prefix, like 192.0.2.10/24');

const ipAddrArgs = z
  .object({
    dev: ifname,
    addresses: z.union([cidr, z.array(cidr)]).transform((v) => (Array.isArray(v) ? v : [v])),
    exclusive: z.boolean().default(false),
    state: z.enum(['present', 'absent']).default('present'),
  })
  .strict();

export type IpAddrArgs = z.infer<typeof ipAddrArgs>;

export function readAddrs(stdout: string): Map<string, AddrEntry[]> {
  return parseAddrs(need(readSections(stdout), 'addrs', stdout).out);
}

export function planAddrs(all: Map<string, AddrEntry[]>, a: IpAddrArgs): Change[] {
  const cur = all.get(a.dev);
  if (!cur) throw new HostwireError('command-failed', `ip_addr: device ${a.dev} does not exist`);
  const want = a.addresses.map(canonicalCidr);
  const have = cur.map((e) => e.cidr);
  const show = (list: string[]) => (list.length ? list.join('\n') + '\n' : '');
  const before = show(cur.filter((e) => e.scope === 'global').map((e) => e.cidr));
  if (a.state === 'absent') {
    const del = want.filter((w) => have.includes(w));
    if (!del.length) return [];
    return [{ summary: `remove ${del.join(', ')} from ${a.dev}`, before, after: show(cur.filter((e) => e.scope === 'global' && !del.includes(e.cidr)).map((e) => e.cidr)), run: del.map((d) => shellJoin(['ip', 'addr', 'del', d, 'dev', a.dev])) }];
  }
  const add = want.filter((w) => !have.includes(w));
  const del = a.exclusive ? cur.filter((e) => e.scope === 'global' && !want.includes(e.cidr)).map((e) => e.cidr) : [];
  if (!add.length && !del.length) return [];
  const kept = cur.filter((e) => e.scope === 'global' && !del.includes(e.cidr)).map((e) => e.cidr);
  const parts = [add.length ? `add ${add.join(', ')}` : '', del.length ? `remove ${del.join(', ')}` : ''].filter(Boolean);
  return [{
    summary: `${a.dev}: ${parts.join('; ')}`,
    before,
    after: show([...kept, ...add]),
    run: [...del.map((d) => shellJoin(['ip', 'addr', 'del', d, 'dev', a.dev])), ...add.map((d) => shellJoin(['ip', 'addr', 'add', d, 'dev', a.dev]))],
  }];
}

export const ipAddrModule: Module<IpAddrArgs, Map<string, AddrEntry[]>> = {
  name: 'ip_addr',
  doc: ipAddrDoc,
  args: ipAddrArgs,
  probe: () => ({ command: `${requireTool('ip')}; ${section('addrs', 'ip -j addr show')}`, parse: (o) => readAddrs(o.stdout) }),
  plan: (all, a) => planAddrs(all, a),
};
