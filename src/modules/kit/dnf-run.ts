// Runs the dnf backend for one want (dnf, yum and package share it): the rpm read, the pure plan, then
// each action through dnf (-y, or --assumeno under --check) with its printed transaction read back
// into ansible's dnf result (msg, rc, results, failures).
import type { Probe } from '../../probe/types.js';
import { withEnvAndCwd } from '../../transports/quote.js';
import { section, readSections } from '../../probe/sections.js';
import type { ModuleContext, ModuleResult } from '../types.js';
import { dnfReadCommand, parseDnfRead, type DnfState, type RpmPackage } from './dnf-read.js';
import { dnfCommand, dnfReadWords, planDnf, type DnfAction, type DnfWant } from './dnf-plan.js';
import { parseDnfOutput } from './dnf-output.js';

export const dnfProbe = (w: DnfWant): Probe<DnfState> => ({ command: dnfReadCommand(dnfReadWords(w.names)), parse: parseDnfRead });

const CHECK_MSG = 'Check mode: No changes made, but would have if not in check mode';
const fail = (msg: string, extra: Record<string, unknown> = {}): ModuleResult => ({ changed: false, failed: true, msg, ...extra, rc: 1, results: [] });
const BEFORE = "rpm -qa --qf '%{NAME}\\t%{EPOCHNUM}\\t%{VERSION}\\t%{RELEASE}\\t%{ARCH}\\n'";

/** Runs one action: the installed packages first when it may replace some (their old versions are results). */
async function runAction(a: DnfAction, w: DnfWant, ctx: ModuleContext, refresh: boolean) {
  // An install of a named newer version (or a wildcard under latest) upgrades too: every installing action reads them.
  const replaces = a.kind === 'upgrade' || a.kind === 'upgrade-all' || a.kind === 'install';
  const script = [...(replaces ? [section('before', BEFORE)] : []), section('dnf', dnfCommand(a, w, { check: ctx.check, refresh }))].join('\n');
  // The task's environment (a proxy for dnf's downloads) reaches dnf, as the module's process gets it.
  const r = await ctx.transport.exec(withEnvAndCwd(script, ctx.environment), { become: ctx.become });
  const s = readSections(r.stdout);
  const before = (s.get('before')?.out ?? '').split('\n').flatMap((l): RpmPackage[] => {
    const f = l.split('\t');
    return f.length === 5 ? [{ name: f[0], epoch: f[1], version: f[2], release: f[3], arch: f[4] }] : [];
  });
  const d = s.get('dnf') ?? { out: `${r.stdout}${r.stderr}`, rc: r.code || 1 };
  return parseDnfOutput(d.out, d.rc, before);
}

export async function runDnfWant(w: DnfWant, ctx: ModuleContext): Promise<ModuleResult> {
  if (w.names.length === 0 && w.updateCache && !w.autoremove) {
    const r = await ctx.transport.exec(withEnvAndCwd(dnfCommand({ kind: 'makecache' }, w, { check: false, refresh: true }), ctx.environment), { become: ctx.become });
    return r.code === 0 ? { changed: false, msg: 'Cache updated', rc: 0, results: [] } : fail(`${r.stderr.trim() || r.stdout.trim()}`);
  }
  const st = await ctx.probe(dnfProbe(w));
  if (!st.hasDnf) return fail(`dnf not found on ${ctx.host}: the dnf module needs dnf (RHEL/Fedora, or Debian's dnf package)`);
  const plan = planDnf(st, w);
  const installed = new Set<string>();
  const removed = new Set<string>();
  let refresh = w.updateCache;
  for (const action of plan.actions) {
    const o = await runAction(action, w, ctx, refresh);
    refresh = false;
    if (o.failures.length) return fail('Failed to install some of the specified packages', { failures: o.failures });
    if (o.error !== undefined) return fail(`${o.depsolve ? 'Depsolve' : 'Unknown'} Error occurred: ${o.error}`, { failures: [] });
    o.installed.forEach((p) => installed.add(p));
    o.removed.forEach((p) => removed.add(p));
  }
  const results = [...plan.notes, ...[...installed].sort().map((p) => `Installed: ${p}`), ...[...removed].sort().map((p) => `Removed: ${p}`)];
  if (installed.size + removed.size === 0) return { changed: false, msg: 'Nothing to do', rc: 0, results };
  return { changed: true, msg: ctx.check ? CHECK_MSG : '', rc: 0, results };
}

