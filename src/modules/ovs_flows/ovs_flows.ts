// ovs_flows: the flows carrying one cookie on a bridge are made exactly the given list: missing ones
// added, others with that cookie deleted (strictly, one by one), flows of other cookies untouched.
// Compared after normalisation (normalize.ts) against `ovs-ofctl dump-flows --no-stats br cookie=C/-1`.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { checkOvs, parseOvsTables } from '../kit/ovsdb.js';
import { VSCTL } from '../../probe/kinds/ovs-rows.js';
import { normalizeFlow, splitTop, type NormFlow } from './normalize.js';
import { ovsFlowsDoc } from './doc.js';

const ovsFlowsArgs = z
  .object({
    bridge: z.string().min(1),
    cookie: z.union([z.string().regex(/^(0x[0-9a-fA-F]+|\d+)$/, 'expected a cookie like 0x999'), z.number().int().min(0)]).transform((c) => `0x${BigInt(c).toString(16)}`),
    flows: z.array(z.string().min(1)),
  })
  .strict()
  .refine((a) => a.cookie !== '0x0', { message: 'cookie 0 would claim every flow without a cookie', path: ['cookie'] });

export type OvsFlowsArgs = z.infer<typeof ovsFlowsArgs>;

export interface FlowsState {
  /** Dumped flows with the cookie, as ovs-ofctl printed them. */
  flows: string[];
  /** OpenFlow port numbers by interface name (to normalise `output:p-int`). */
  ports: Map<string, number>;
}

export function parseDump(out: string): string[] {
  return out.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(NXST|OFPST)_FLOW reply/.test(l));
}

export function readFlows(stdout: string, bridge: string): FlowsState {
  const s = readSections(stdout);
  const dump = need(s, 'flows', stdout);
  if (dump.rc !== 0) {
    if (/is not a bridge or a socket/.test(dump.out)) throw new HostwireError('command-failed', `ovs_flows: no bridge named ${bridge} (${dump.out.trim()})`);
    throw new HostwireError('command-failed', `ovs-ofctl dump-flows ${bridge} failed: ${dump.out.trim()}`);
  }
  const ifaces = need(s, 'ports', stdout);
  checkOvs(ifaces, 'ovs-vsctl list Interface');
  const ports = new Map<string, number>();
  for (const row of parseOvsTables(ifaces.out)[0] ?? []) if (typeof row.ofport === 'number' && row.ofport > 0) ports.set(String(row.name), row.ofport);
  return { flows: parseDump(dump.out), ports };
}

/** The user's flow without its cookie term (the module adds its own). */
export function stripCookie(flow: string, cookie: string): string {
  const at = flow.search(/(^|[\s,])actions=/);
  const head = splitTop(flow.slice(0, Math.max(at, 0)), /,/).map((t) => t.trim());
  const c = head.find((t) => /^cookie=/i.test(t));
  if (c && BigInt(c.slice(7).split('/')[0]) !== BigInt(cookie)) throw new HostwireError('bad-input', `ovs_flows: flow carries ${c}, not the module's cookie=${cookie}: ${flow}`);
  return [...head.filter((t) => !/^cookie=/i.test(t) && t !== ''), flow.slice(at).replace(/^[\s,]*/, '')].join(',');
}

export function planFlows(s: FlowsState, a: OvsFlowsArgs): Change[] {
  const cur = s.flows.map((f) => normalizeFlow(f, s.ports));
  const want = new Map<string, { flow: NormFlow; text: string }>();
  for (const text of a.flows) {
    const flow = normalizeFlow(stripCookie(text, a.cookie), s.ports);
    want.set(flow.canon, { flow, text: stripCookie(text, a.cookie) });
  }
  const have = new Set(cur.map((f) => f.canon));
  const add = [...want.values()].filter((w) => !have.has(w.flow.canon));
  const addKeys = new Set(add.map((w) => w.flow.key));
  // A flow whose actions changed is overwritten by add-flow (same key): no delete needed.
  const del = cur.filter((f) => !want.has(f.canon) && !addKeys.has(f.key)).sort((x, y) => (x.key < y.key ? -1 : 1));
  if (!add.length && !del.length && cur.length === want.size) return [];
  const run = [
    ...del.map((f) => shellJoin(['ovs-ofctl', '--strict', 'del-flows', a.bridge, [`cookie=${a.cookie}/-1`, `table=${f.table}`, `priority=${f.priority}`, ...f.match].join(',')])),
    ...add.map((w) => shellJoin(['ovs-ofctl', 'add-flow', a.bridge, `cookie=${a.cookie},${w.text}`])),
  ];
  if (!run.length) return [];
  const show = (list: string[]) => (list.length ? [...list].sort().join('\n') + '\n' : '(none)\n');
  const changed = cur.filter((f) => !want.has(f.canon) && addKeys.has(f.key)).length;
  return [{
    summary: `${a.bridge} cookie=${a.cookie}: ${add.length - changed} added, ${changed} changed, ${del.length} deleted`,
    before: show(cur.map((f) => f.canon)),
    after: show([...want.keys()]),
    run,
  }];
}

export const ovsFlowsModule: Module<OvsFlowsArgs, FlowsState> = {
  name: 'ovs_flows',
  doc: ovsFlowsDoc,
  args: ovsFlowsArgs,
  probe: (a) => ({
    command: [
      requireTool('ovs-ofctl'),
      section('flows', shellJoin(['ovs-ofctl', '--no-names', 'dump-flows', '--no-stats', a.bridge, `cookie=${a.cookie}/-1`])),
      section('ports', shellJoin([...VSCTL.split(' '), '--format=json', '--columns=name,ofport', 'list', 'Interface'])),
    ].join('; '),
    parse: (o) => readFlows(o.stdout, a.bridge),
  }),
  plan: (s, a) => planFlows(s, a),
};
