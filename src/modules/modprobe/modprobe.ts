// modprobe: community.general.modprobe natively - a kernel module loaded or unloaded with its params,
// and persistent (modules-load.d / modprobe.d) as the collection's 6.6.2 edits them. Read in the play's
// batched read (probe.ts), planned purely (plan.ts); the result has the module's name/params/state.
import { HostwireError } from '../../errors.js';
import { applyChanges } from '../kit/apply.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { modprobeArgs, type ModprobeArgs } from './args.js';
import { modprobeProbe } from './probe.js';
import { planModprobe } from './plan.js';
import type { ModprobeState } from './parse.js';
import { modprobeDoc } from './doc.js';

async function runModprobe(a: ModprobeArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const base = { name: a.name, params: a.params, state: a.state };
  let changes;
  try {
    changes = planModprobe(await ctx.probe(modprobeProbe(a)), a);
  } catch (e) {
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message, ...base };
    throw e;
  }
  const diff = ctx.diff ? changes.map((c) => ({ before: c.before, after: c.after, header: c.summary })) : undefined;
  if (!ctx.check && changes.length) await applyChanges(changes, ctx);
  return { changed: changes.length > 0, ...base, ...(diff?.length ? { diff } : {}) };
}

export const modprobeModule: Module<ModprobeArgs, ModprobeState> = {
  name: 'modprobe',
  doc: modprobeDoc,
  args: modprobeArgs,
  probe: (a) => modprobeProbe(a),
  plan: (st, a) => planModprobe(st, a),
  run: runModprobe,
  readsAhead: (a) => [modprobeProbe(a)],
};
