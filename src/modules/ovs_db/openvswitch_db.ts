// openvswitch.openvswitch.openvswitch_db (collection 2.1.1) as an alias of ovs_db: its argument names
// (table, record, col, key, value, state, timeout) and its judgement - state present needs a value, a
// map column needs a key, True/False are lowered - over ovs_db's batched read and plan. What has no
// mapping is refused by name: state read, database_socket, a timeout other than ovs_db's 5 s, and
// state absent without a key (the module's `ovs-vsctl remove` without a value, which ovs-vsctl rejects).
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { ansibleInt } from '../kit/ansible-args.js';
import { applyChanges } from '../kit/apply.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { columnIsMap, ovsDbModule, planDb, readDb, type DbState, type OvsDbArgs } from './ovs_db.js';
import { openvswitchDbDoc } from './openvswitch-db-doc.js';

const openvswitchDbArgs = z
  .object({
    state: z.enum(['present', 'absent', 'read']).default('present'),
    table: z.string().min(1),
    record: z.string().min(1),
    col: z.string().min(1),
    key: z.string().optional(),
    value: z.union([z.string(), z.number(), z.boolean()]).transform((v) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v))).optional(),
    timeout: ansibleInt.default(5),
    database_socket: z.string().optional(),
  })
  .strict();
type OpenvswitchDbArgs = z.infer<typeof openvswitchDbArgs>;

/** ovs_db's arguments for these, or why there is no mapping. */
function mapped(a: OpenvswitchDbArgs): OvsDbArgs | string {
  if (a.state === 'read') return "state: read is not built in hostwire's openvswitch_db (register ovs-vsctl get through command instead)";
  if (a.database_socket !== undefined) return "database_socket is not built in hostwire's openvswitch_db (it talks to the host's default OVSDB)";
  if (a.timeout !== 5) return `timeout: ${a.timeout} is not built in hostwire's openvswitch_db (ovs-vsctl runs with its 5 s timeout)`;
  if (a.state === 'present' && !a.value) return 'missing required argument value for state: present';
  if (a.state === 'absent' && a.key === undefined) return "state: absent without key: the module's ovs-vsctl remove has no value to remove (use ovs_db to clear a column)";
  const value = a.value === 'True' || a.value === 'False' ? a.value.toLowerCase() : a.value;
  const r = ovsDbModule.args.safeParse({ table: a.table, record: a.record, col: a.col, key: a.key, value, state: a.state });
  return r.success ? (r.data as OvsDbArgs) : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

const dbProbe = (a: OvsDbArgs) => {
  const p = ovsDbModule.probe!(a, { host: '', vars: {} });
  return { command: p.command, merge: p.merge, parse: (o: { stdout: string }) => ({ ...readDb(o.stdout, a), isMap: columnIsMap(o.stdout, a.col) }) };
};

async function runOpenvswitchDb(a: OpenvswitchDbArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const db = mapped(a);
  if (typeof db === 'string') return { changed: false, failed: true, msg: db };
  let st: DbState & { isMap: boolean };
  try {
    st = await ctx.probe(dbProbe(db));
  } catch (e) {
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message };
    throw e;
  }
  if (st.isMap && db.key === undefined) return { changed: false, failed: true, msg: 'missing required arguments: key for map type of column' };
  const changes = planDb(st, db);
  if (!ctx.check && changes.length) await applyChanges(changes, ctx);
  const diff = ctx.diff ? changes.map((c) => ({ before: c.before, after: c.after })) : [];
  if (!changes.length) return { changed: false, commands: [] };
  // The module parses ovs-vsctl's output (empty for set/remove) into `output`; under --check it has
  // none and the module crashes (UnboundLocalError, collection 2.1.1): hostwire predicts instead.
  const output = ctx.check ? {} : { output: { [db.key ?? db.col]: '' } };
  return { changed: true, commands: changes.flatMap((c) => c.run), ...output, ...(diff.length ? { diff } : {}) };
}

export const openvswitchDbModule: Module<OpenvswitchDbArgs> = {
  name: 'openvswitch_db',
  doc: openvswitchDbDoc,
  args: openvswitchDbArgs,
  run: runOpenvswitchDb,
  readsAhead: (a) => {
    const db = mapped(a);
    return typeof db === 'string' ? [] : [dbProbe(db)];
  },
};
