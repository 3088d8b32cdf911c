// openvswitch.openvswitch.openvswitch_port (collection 2.1.1) as an alias of ovs_port: its argument
// names (bridge, port, state, tag, external_ids, set) over a batched ovs-vsctl read of the port and
// the module's own judgement (openvswitch-port-plan.ts); the result carries `commands` as the
// module's does (here: the ovs-vsctl commands hostwire runs, every word quoted). `set` entries map
// when they set columns of this port's own Interface or Port row; refused by name: any other `set`,
// database_socket, a timeout other than ovs_port's 5 s.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { ansibleInt } from '../kit/ansible-args.js';
import { applyChanges } from '../kit/apply.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { openvswitchPortDoc } from './openvswitch-port-doc.js';
import { openvswitchPortRead, parseOpenvswitchPort, planOpenvswitchPort, type OvsPortHave, type OvsPortWant } from './openvswitch-port-plan.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const openvswitchPortArgs = z
  .object({
    bridge: z.string().min(1),
    port: z.string().min(1),
    tag: scalar.optional(),
    state: z.enum(['present', 'absent']).default('present'),
    timeout: ansibleInt.default(5),
    external_ids: z.record(scalar.nullable()).default({}),
    // type list: a string is split on commas, as AnsibleModule's check_type_list does.
    set: z.union([z.string().transform((s) => s.split(',')), z.array(z.string())]).optional(),
    database_socket: z.string().optional(),
  })
  .strict();
type OpenvswitchPortArgs = z.infer<typeof openvswitchPortArgs>;

const refused = (what: string) => `${what} is not built in hostwire's openvswitch_port`;
const safeWord = (w: string) => !/[\x00-\x1f\x7f]/.test(w) && !w.startsWith('-');

/** One `set` entry as ovs-vsctl words, or why it has no mapping. */
function setEntry(entry: string, port: string): string[] | string {
  const words = entry.trim().split(/\s+/);
  const [table = '', record = '', ...cols] = words;
  if (!/^(interface|port)$/i.test(table) || record !== port || !cols.length || !cols.every((c) => /^[A-Za-z_][\w:-]*=/.test(c)) || !words.every(safeWord)) {
    return refused(`set: '${entry}' (only 'Interface ${port} COLUMN=VALUE...' or 'Port ${port} COLUMN=VALUE...' maps)`);
  }
  return words;
}

/** The module's wish in plan terms, or why there is no mapping. */
export function openvswitchPortWant(a: OpenvswitchPortArgs): OvsPortWant | string {
  if (a.database_socket !== undefined) return refused('database_socket (it talks to the default OVSDB)');
  if (a.timeout !== 5) return refused(`timeout: ${a.timeout} (ovs-vsctl runs with its 5 s timeout)`);
  if (a.tag !== undefined && (!/^\d+$/.test(a.tag) || Number(a.tag) > 4095)) return `tag: expected a VLAN id between 0 and 4095, got '${a.tag}'`;
  const names = [a.bridge, a.port, ...Object.entries(a.external_ids).flatMap(([k, v]) => [k, v ?? ''])];
  if (!names.every((n) => !/[\x00-\x1f\x7f]/.test(n))) return 'bridge, port and external_ids must not hold control characters';
  const set: string[][] = [];
  for (const entry of a.set ?? []) {
    const words = setEntry(entry, a.port);
    if (typeof words === 'string') return words;
    set.push(words);
  }
  return { bridge: a.bridge, port: a.port, state: a.state, tag: a.tag === undefined ? undefined : String(Number(a.tag)), externalIds: a.external_ids, set };
}

async function runOpenvswitchPort(a: OpenvswitchPortArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const want = openvswitchPortWant(a);
  if (typeof want === 'string') return { changed: false, failed: true, msg: want };
  let have: OvsPortHave;
  try {
    have = await ctx.probe({ ...openvswitchPortRead(a.port), parse: (o) => parseOpenvswitchPort(o.stdout) });
  } catch (e) {
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message };
    throw e;
  }
  const changes = planOpenvswitchPort(have, want);
  if (typeof changes === 'string') return { changed: false, failed: true, msg: changes };
  if (!ctx.check && changes.length) await applyChanges(changes, ctx);
  const diff = ctx.diff ? changes.map((c) => ({ before: c.before, after: c.after })) : [];
  return { changed: changes.length > 0, commands: changes.flatMap((c) => c.run), ...(diff.length ? { diff } : {}) };
}

export const openvswitchPortModule: Module<OpenvswitchPortArgs> = {
  name: 'openvswitch_port',
  doc: openvswitchPortDoc,
  args: openvswitchPortArgs,
  run: runOpenvswitchPort,
  readsAhead: (a) => (typeof openvswitchPortWant(a) === 'string' ? [] : [openvswitchPortRead(a.port)]),
};
