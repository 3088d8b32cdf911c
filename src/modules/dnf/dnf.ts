// dnf: ansible.builtin.dnf natively (kit/dnf-read.ts reads with rpm, kit/dnf-plan.ts plans, dnf's
// printed transaction is the result: kit/dnf-run.ts). A spec the read settles starts no dnf ("Nothing
// to do", as the module says); otherwise `dnf -y ACTION -- specs` runs (`dnf --assumeno` under --check:
// the transaction predicted, nothing done) and its table gives the module's results list.
import type { DnfState } from '../kit/dnf-read.js';
import { dnfCommand, planDnf, type DnfAction, type DnfWant } from '../kit/dnf-plan.js';
import { dnfProbe, runDnfWant } from '../kit/dnf-run.js';
import type { Change, Module } from '../types.js';
import { dnfArgs, dnfWant, type DnfArgs } from './args.js';
import { dnfDoc } from './doc.js';

const summary = (a: DnfAction) => ('specs' in a ? `${a.kind} ${a.specs.join(', ')}` : a.kind === 'makecache' ? 'refresh the dnf cache' : a.kind === 'upgrade-all' ? 'upgrade every package' : 'autoremove');

/** The plan as changes (recorded cases): what runs, before dnf says what the transaction holds. */
export const dnfChanges = (st: DnfState, w: DnfWant): Change[] =>
  planDnf(st, w).actions.map((a, i) => ({ summary: summary(a), run: [dnfCommand(a, w, { check: false, refresh: w.updateCache && i === 0 })] }));

export const dnfModule: Module<DnfArgs, DnfState> = {
  name: 'dnf',
  doc: dnfDoc,
  args: dnfArgs,
  probe: (a) => dnfProbe(dnfWant(a)),
  plan: (st, a) => dnfChanges(st, dnfWant(a)),
  run: (a, ctx) => runDnfWant(dnfWant(a), ctx),
  readsAhead: (a) => [dnfProbe(dnfWant(a))],
  environment: 'applies',
};
