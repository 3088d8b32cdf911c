// community.general.nmcli (6.6.2) as an alias of nm_connection: the module's argument names for
// ethernet, bridge, bridge-slave, bond, bond-slave, vlan and generic connections, over nm_connection's
// batched read of the profile; the settings, change detection and commands are the module's
// (nmcli-options.ts, nmcli-plan.ts), its result fields too (conn_name, state, Exists/Connection,
// stdout/stderr of the last command, diff as before/after settings). As the module, a modified
// profile is not re-activated. The module's other arguments are refused by name.
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { nmConnectionModule, type NmState } from './nm_connection.js';
import { nmcliArgs, nmcliRefusals, type NmcliArgs } from './nmcli-args.js';
import { nmcliDoc } from './nmcli-doc.js';
import { planNmcli } from './nmcli-plan.js';

const readOf = (a: NmcliArgs) => nmConnectionModule.probe!(nmConnectionModule.args.parse({ conn_name: a.conn_name }), { host: '', vars: {} });

const diffText = (d: Record<string, unknown>) => `${Object.entries(d).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : (v ?? '--')}`).join('\n')}\n`;

async function runNmcli(a: NmcliArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const base = { conn_name: a.conn_name, state: a.state };
  const refused = nmcliRefusals(a);
  if (refused) return { ...base, changed: false, failed: true, msg: refused };
  let state: NmState;
  try {
    state = await ctx.probe(readOf(a));
  } catch (e) {
    if (e instanceof HostwireError) return { ...base, changed: false, failed: true, msg: e.message };
    throw e;
  }
  const plan = planNmcli(state, a);
  if (typeof plan === 'string') return { ...base, changed: false, failed: true, msg: plan };
  const diff = ctx.diff && plan.diff ? { diff: [{ before: diffText(plan.diff.before), after: diffText(plan.diff.after) }] } : {};
  const result: ModuleResult = { ...base, ...plan.report, changed: plan.steps.length > 0, ...diff };
  // The module's check mode leaves at a delete with changed alone.
  if (ctx.check && a.state === 'absent' && plan.steps.length) return { changed: true };
  if (ctx.check || !plan.steps.length) return result;
  let last = { stdout: '', stderr: '' };
  for (const step of plan.steps) {
    const r = await ctx.transport.exec(shellJoin(['env', 'LANG=C', 'LC_ALL=C', 'nmcli', ...step.words]), { become: ctx.become });
    last = { stdout: r.stdout, stderr: r.stderr };
    if (step.checked && r.code !== 0) return { ...result, name: step.failName, failed: true, msg: r.stderr.trim() || `nmcli exited ${r.code}`, rc: r.code };
  }
  return { ...result, ...(last.stdout ? { stdout: last.stdout } : {}), ...(last.stderr ? { stderr: last.stderr } : {}) };
}

export const nmcliModule: Module<NmcliArgs> = {
  name: 'nmcli',
  doc: nmcliDoc,
  args: nmcliArgs,
  run: runNmcli,
  readsAhead: (a) => (nmcliRefusals(a) ? [] : [readOf(a)]),
};
