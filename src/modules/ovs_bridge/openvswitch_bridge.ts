// openvswitch.openvswitch.openvswitch_bridge (collection 2.1.1) as an alias of ovs_bridge: its argument
// names (bridge, state, fail_mode, external_ids, set) over ovs_bridge's batched read and plan; the
// result carries `commands` as the module's does (here: the ovs-vsctl commands hostwire runs). `set`
// maps when it sets the bridge's datapath_type (`Bridge <bridge> datapath_type=netdev`, what real
// content uses it for); refused by name: parent/vlan (fake bridges), any other `set`, database_socket,
// a timeout other than ovs_bridge's 5 s.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { ansibleInt } from '../kit/ansible-args.js';
import { applyChanges } from '../kit/apply.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ovsBridgeModule, planBridge, type BridgeRow, type OvsBridgeArgs } from './ovs_bridge.js';
import { openvswitchBridgeDoc } from './openvswitch-bridge-doc.js';

const openvswitchBridgeArgs = z
  .object({
    bridge: z.string().min(1),
    parent: z.string().optional(),
    vlan: ansibleInt.optional(),
    state: z.enum(['present', 'absent']).default('present'),
    timeout: ansibleInt.default(5),
    external_ids: z.record(z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
    fail_mode: z.string().optional(),
    set: z.string().optional(),
    database_socket: z.string().optional(),
  })
  .strict();
type OpenvswitchBridgeArgs = z.infer<typeof openvswitchBridgeArgs>;

const refused = (what: string) => `${what} is not built in hostwire's openvswitch_bridge`;

/** ovs_bridge's arguments for these, or why there is no mapping. */
function mapped(a: OpenvswitchBridgeArgs): OvsBridgeArgs | string {
  if (a.parent !== undefined && a.vlan === undefined) return 'parent is not None but all of the following are missing: vlan';
  if (a.parent !== undefined || a.vlan !== undefined) return refused('parent/vlan (a fake bridge)');
  if (a.database_socket !== undefined) return refused('database_socket (it talks to the default OVSDB)');
  if (a.timeout !== 5) return refused(`timeout: ${a.timeout} (ovs-vsctl runs with its 5 s timeout)`);
  let datapathType: string | undefined;
  if (a.set !== undefined) {
    const m = /^\s*[Bb]ridge\s+(\S+)\s+datapath_type=(\w+)\s*$/.exec(a.set);
    if (!m || m[1] !== a.bridge) return refused(`set: '${a.set}' (only 'Bridge ${a.bridge} datapath_type=TYPE' maps)`);
    datapathType = m[2];
  }
  const r = ovsBridgeModule.args.safeParse({ bridge: a.bridge, state: a.state, fail_mode: a.fail_mode, external_ids: a.external_ids, datapath_type: datapathType });
  return r.success ? (r.data as OvsBridgeArgs) : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

const bridgeProbe = (a: OvsBridgeArgs) => ovsBridgeModule.probe!(a, { host: '', vars: {} });

async function runOpenvswitchBridge(a: OpenvswitchBridgeArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const br = mapped(a);
  if (typeof br === 'string') return { changed: false, failed: true, msg: br };
  let row: BridgeRow;
  try {
    row = await ctx.probe(bridgeProbe(br));
  } catch (e) {
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message };
    throw e;
  }
  const changes = planBridge(row, br);
  if (!ctx.check && changes.length) await applyChanges(changes, ctx);
  const diff = ctx.diff ? changes.map((c) => ({ before: c.before, after: c.after })) : [];
  return { changed: changes.length > 0, commands: changes.flatMap((c) => c.run), ...(diff.length ? { diff } : {}) };
}

export const openvswitchBridgeModule: Module<OpenvswitchBridgeArgs> = {
  name: 'openvswitch_bridge',
  doc: openvswitchBridgeDoc,
  args: openvswitchBridgeArgs,
  run: runOpenvswitchBridge,
  readsAhead: (a) => {
    const br = mapped(a);
    return typeof br === 'string' ? [] : [bridgeProbe(br)];
  },
};
