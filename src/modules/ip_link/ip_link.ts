// ip_link: a kernel link (bridge, veth, vxlan, macvlan, ipip, gre) with its mtu, MAC and up/down.
// Read with `ip -j -d link show` (one read shared by every ip_link task); parameters that the kernel
// cannot change in place (vxlan id, veth peer...) make the link be recreated.
import { z } from 'zod';
import { BadInputError } from '../../errors.js';
import { shellJoin, shellQuote } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { ifname } from '../kit/ifname.js';
import { parseLinks, type LinkState } from './parse.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { ipLinkDoc } from './doc.js';

const kinds = ['bridge', 'veth', 'vxlan', 'ipip', 'gre', 'macvlan'] as const;

const ipLinkArgs = z
  .object({
    name: ifname,
    kind: z.enum(kinds).optional(),
    parameters: z
      .object({
        id: z.number().int().min(0).max(16777215).optional(),
        remote: z.string().optional(),
        local: z.string().optional(),
        group: z.string().optional(),
        dstport: z.number().int().min(0).max(65535).optional(),
        dev: ifname.optional(),
        peer: ifname.optional(),
        mode: z.enum(['private', 'vepa', 'bridge', 'passthru', 'source']).optional(),
        link: ifname.optional(),
      })
      .strict()
      .default({}),
    mtu: z.number().int().min(68).max(65535).optional(),
    address: z.string().regex(/^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$/, 'expected a MAC address like 02:00:00:00:00:01').optional(),
    state: z.enum(['up', 'down', 'present', 'absent']).default('up'),
  })
  .strict()
  .refine((a) => a.kind !== 'vxlan' || a.parameters.id !== undefined, { message: 'kind vxlan needs parameters.id', path: ['parameters'] })
  .refine((a) => a.kind !== 'veth' || a.parameters.peer !== undefined, { message: 'kind veth needs parameters.peer', path: ['parameters'] })
  .refine((a) => a.kind !== 'macvlan' || a.parameters.link !== undefined, { message: 'kind macvlan needs parameters.link', path: ['parameters'] });

export type IpLinkArgs = z.infer<typeof ipLinkArgs>;

export const LINKS_COMMAND = section('links', 'ip -j -d link show');

export function readLinks(stdout: string): Map<string, LinkState> {
  const s = need(readSections(stdout), 'links', stdout);
  return parseLinks(s.out);
}

/** `type ...` words for `ip link add`. */
function typeWords(a: IpLinkArgs): string[] {
  const p = a.parameters;
  const w: string[] = [];
  if (a.kind === 'macvlan') w.push('link', p.link!);
  w.push('type', a.kind!);
  if (a.kind === 'veth') w.push('peer', 'name', p.peer!);
  if (a.kind === 'vxlan') {
    w.push('id', String(p.id));
    if (p.remote) w.push('remote', p.remote);
    if (p.group) w.push('group', p.group);
    if (p.local) w.push('local', p.local);
    w.push('dstport', String(p.dstport ?? 4789));
    if (p.dev) w.push('dev', p.dev);
  }
  if (a.kind === 'ipip' || a.kind === 'gre') {
    if (p.remote) w.push('remote', p.remote);
    if (p.local) w.push('local', p.local);
    if (p.dev) w.push('dev', p.dev);
  }
  if (a.kind === 'macvlan') w.push('mode', p.mode ?? 'bridge');
  return w;
}

/** `ip link add`, turning the kernel's "Unknown device type" into a message that names the kind. */
export function addCommand(a: IpLinkArgs): string {
  const words = ['ip', 'link', 'add', 'name', a.name];
  if (a.address) words.push('address', a.address);
  if (a.mtu) words.push('mtu', String(a.mtu));
  const add = shellJoin([...words, ...typeWords(a)]);
  const lacks = shellQuote(`kernel lacks ${a.kind}: ip link add ${a.name} failed with 'Unknown device type' (no ${a.kind} module)`);
  return `out=$(${add} 2>&1) || { case "$out" in *"Unknown device type"*) printf '%s\\n' ${lacks} >&2 ;; *) printf '%s\\n' "$out" >&2 ;; esac; exit 1; }`;
}

/** Parameters the kernel reports differently from what was asked: the link must be recreated. */
export function paramMismatch(cur: LinkState, a: IpLinkArgs): string | undefined {
  const p = a.parameters;
  if (a.kind && cur.kind !== a.kind) return `kind ${cur.kind ?? 'none'} -> ${a.kind}`;
  if (a.kind === 'veth' && cur.link !== p.peer) return `veth peer ${cur.link} -> ${p.peer}`;
  if (a.kind === 'macvlan' && cur.link !== p.link) return `macvlan link ${cur.link} -> ${p.link}`;
  if (a.kind === 'vxlan') {
    const d = cur.data;
    if (d.id !== p.id) return `vxlan id ${String(d.id)} -> ${p.id}`;
    if (d.port !== (p.dstport ?? 4789)) return `vxlan dstport ${String(d.port)} -> ${p.dstport ?? 4789}`;
    if (p.remote !== undefined && d.remote !== p.remote) return `vxlan remote ${String(d.remote)} -> ${p.remote}`;
    if (p.group !== undefined && d.group !== p.group) return `vxlan group ${String(d.group)} -> ${p.group}`;
    if (p.dev !== undefined && d.link !== p.dev) return `vxlan dev ${String(d.link)} -> ${p.dev}`;
  }
  return undefined;
}

const describe = (l: LinkState | undefined) => (l ? `${l.name} kind=${l.kind ?? 'none'} mtu=${l.mtu} address=${l.address ?? ''} ${l.up ? 'up' : 'down'}\n` : 'absent\n');

function wanted(cur: LinkState | undefined, a: IpLinkArgs): string {
  if (a.state === 'absent') return 'absent\n';
  const up = a.state === 'up' || (a.state === 'present' && (cur?.up ?? false));
  return `${a.name} kind=${a.kind ?? cur?.kind ?? 'none'} mtu=${a.mtu ?? cur?.mtu ?? 'default'} address=${a.address ?? cur?.address ?? 'random'} ${up ? 'up' : 'down'}\n`;
}

export function planLink(links: Map<string, LinkState>, a: IpLinkArgs): Change[] {
  const cur = links.get(a.name);
  const before = describe(cur);
  const del = shellJoin(['ip', 'link', 'del', 'dev', a.name]);
  if (a.state === 'absent') return cur ? [{ summary: `delete link ${a.name}`, before, after: 'absent\n', run: [del] }] : [];
  const setUp = a.state === 'up' ? [shellJoin(['ip', 'link', 'set', 'dev', a.name, 'up'])] : [];
  if (!cur || (a.kind && paramMismatch(cur, a))) {
    if (!a.kind) throw new BadInputError(`link ${a.name} does not exist and no kind was given to create it`);
    const why = cur ? paramMismatch(cur, a) : undefined;
    return [{ summary: cur ? `recreate link ${a.name} (${why})` : `create ${a.kind} link ${a.name}`, before, after: wanted(undefined, a), run: [...(cur ? [del] : []), addCommand(a), ...setUp] }];
  }
  const run: string[] = [];
  const what: string[] = [];
  if (a.mtu !== undefined && cur.mtu !== a.mtu) (run.push(shellJoin(['ip', 'link', 'set', 'dev', a.name, 'mtu', String(a.mtu)])), what.push(`mtu ${cur.mtu} -> ${a.mtu}`));
  if (a.address && cur.address?.toLowerCase() !== a.address.toLowerCase()) (run.push(shellJoin(['ip', 'link', 'set', 'dev', a.name, 'address', a.address.toLowerCase()])), what.push(`address -> ${a.address}`));
  if (a.state === 'up' && !cur.up) (run.push(...setUp), what.push('up'));
  if (a.state === 'down' && cur.up) (run.push(shellJoin(['ip', 'link', 'set', 'dev', a.name, 'down'])), what.push('down'));
  return run.length ? [{ summary: `link ${a.name}: ${what.join(', ')}`, before, after: wanted(cur, a), run }] : [];
}

export const ipLinkModule: Module<IpLinkArgs, Map<string, LinkState>> = {
  name: 'ip_link',
  doc: ipLinkDoc,
  args: ipLinkArgs,
  probe: () => ({ command: `${requireTool('ip')}; ${LINKS_COMMAND}`, parse: (o) => readLinks(o.stdout) }),
  plan: (links, a) => planLink(links, a),
};
