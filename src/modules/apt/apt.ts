// apt: ansible.builtin.apt natively (kit/apt-read.ts reads, kit/apt-plan.ts plans - the backend the
// package module shares). run() follows the module's order: refresh a stale cache (then read again),
// then install/remove (apt-get --simulate under --check), with its result fields (cache_updated...).
import { HostwireError } from '../../errors.js';
import type { Probe } from '../../probe/types.js';
import { APT_ENV, aptReadCommand, parseAptRead, type AptState } from '../kit/apt-read.js';
import { aptChanges, aptCommands, planApt, type AptAction, type AptWant } from '../kit/apt-plan.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { aptArgs, aptWant, type AptArgs } from './args.js';
import { aptDoc } from './doc.js';

const aptProbe = (w: AptWant, afterUpdate = false): Probe<AptState> => ({
  command: (afterUpdate ? ': read again after apt-get update\n' : '') + aptReadCommand({ names: w.names, deb: w.deb, ...(w.autoremove && w.names.length === 0 ? { autoremove: { purge: w.purge } } : {}) }),
  parse: parseAptRead,
});

async function exec(cmds: string[], ctx: ModuleContext): Promise<{ out: string; err: string; rc: number; failed?: string }> {
  if (cmds.length === 0) return { out: '', err: '', rc: 0 };
  const r = await ctx.transport.exec(['set -e', ...cmds].join('\n'), { become: ctx.become });
  // The message names the command as the module does ('apt-get ... install ...' failed: stderr), without the env.
  const shown = cmds[0].replace(`${APT_ENV} `, '');
  return { out: r.stdout, err: r.stderr, rc: r.code, ...(r.code !== 0 ? { failed: `'${shown}' failed: ${r.stderr}` } : {}) };
}

/** Refreshes the cache when planned; returns the actions planned on the fresh read and whether it changed. */
async function refresh(w: AptWant, st: AptState, actions: AptAction[], ctx: ModuleContext) {
  if (actions[0]?.kind !== 'update') return { actions, updated: false, time: st.cacheTime };
  if (ctx.check) return { actions: actions.slice(1), updated: true, time: st.cacheTime };
  const r = await exec(aptCommands(actions[0], w, false), ctx);
  if (r.failed) throw new HostwireError('command-failed', `Failed to update apt cache: ${r.err.trim() || r.out.trim()}`);
  const fresh = await ctx.probe(aptProbe(w, true));
  return { actions: planApt(fresh, w, { cacheDone: true }), updated: fresh.cacheTime !== st.cacheTime, time: fresh.cacheTime };
}

async function runApt(a: AptArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const w = aptWant(a);
  const st = await ctx.probe(aptProbe(w));
  const cacheAsked = w.updateCache === true || w.cacheValidTime > 0;
  // The module returns the cache's fields with an install's result (failed or not) and alone.
  const cacheFields = (updated: boolean, time: number) => (w.deb === undefined && w.state !== 'absent' && (w.names.length > 0 || cacheAsked) ? { cache_updated: updated, cache_update_time: time } : {});
  let planned: Awaited<ReturnType<typeof refresh>>;
  try {
    planned = await refresh(w, st, planApt(st, w), ctx);
  } catch (e) {
    // install() returns "no available installation candidate" with the cache's fields; other refusals are fail_json's.
    const returned = e instanceof HostwireError && e.message.startsWith('no available installation candidate');
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message, ...(returned ? cacheFields(false, st.cacheTime) : {}) };
    throw e;
  }
  const cache = cacheFields(planned.updated, planned.time);
  let stdout = '';
  let stderr = '';
  for (const action of planned.actions) {
    // Under --check the autoremove was already simulated by the read.
    const r = ctx.check && action.kind === 'autoremove' ? { out: st.autoremoveSim?.out ?? '', err: '', rc: 0, failed: undefined } : await exec(aptCommands(action, w, ctx.check), ctx);
    stdout += r.out;
    stderr += r.err;
    if (r.failed) return { changed: false, failed: true, msg: r.failed, stdout, stderr, rc: r.rc, ...cache };
  }
  const nothingElse = w.names.length === 0 && w.deb === undefined;
  const changed = planned.actions.length > 0 || (nothingElse && planned.updated);
  const diff = ctx.diff ? aptChanges(planned.actions, w).filter((c) => c.before !== undefined).map((c) => ({ header: c.summary, before: c.before, after: c.after })) : [];
  return { changed, ...cache, ...(stdout || changed ? { stdout, stderr } : {}), ...(diff.length ? { diff } : {}) };
}

export const aptModule: Module<AptArgs, AptState> = {
  name: 'apt',
  doc: aptDoc,
  args: aptArgs,
  probe: (a) => aptProbe(aptWant(a)),
  plan: (st, a) => aptChanges(planApt(st, aptWant(a)), aptWant(a)),
  run: runApt,
  readsAhead: (a) => [aptProbe(aptWant(a))],
};
