// yum: ansible.builtin.yum as its action plugin runs it (plugins/action/yum.py): the backend is `use` or
// `use_backend`, else the host's pkg_mgr fact, and on a dnf host the dnf module gets the task's other
// arguments. The yum3 backend (yum's Python 2 API) is not built: refused by name.
import { z } from 'zod';
import { withAliases } from '../kit/ansible-args.js';
import type { Module, ModuleResult } from '../types.js';
import { DNF_ALIASES, dnfShape, dnfWant, type DnfArgs } from './args.js';
import { dnfProbe, runDnfWant } from '../kit/dnf-run.js';
import { yumDoc } from './doc.js';
import type { DnfState } from '../kit/dnf-read.js';

const backend = z.enum(['auto', 'yum', 'yum4', 'dnf'], { errorMap: () => ({ message: 'expected auto, yum, yum4 or dnf' }) });

const yumArgs = withAliases(
  z
    .object({ ...dnfShape, use_backend: backend.optional(), use: backend.optional() })
    .strict()
    .superRefine((a, ctx) => {
      if (a.use !== undefined && a.use_backend !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "parameters are mutually exclusive: ('use', 'use_backend')" });
      if (a.autoremove && a.state !== undefined && a.state !== 'absent' && a.state !== 'removed') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['autoremove'], message: 'Autoremove should be used alone or with state=absent' });
    }),
  DNF_ALIASES,
);
type YumArgs = z.infer<typeof yumArgs>;

const VALID = ['yum', 'yum4', 'dnf'];
const DETECT_FAILED = [
  'Could not detect which major revision of yum is in use, which is required to determine module backend.',
  'You should manually specify use_backend to tell the module whether to use the yum (yum3) or dnf (yum4) backend})',
];

/** The pkg_mgr fact; a fact naming another manager (apt) is Ansible's failure: its setup would say the same. */
function factBackend(vars: Record<string, unknown>): string | undefined {
  const facts = vars.ansible_facts as Record<string, unknown> | undefined;
  const fact = facts?.pkg_mgr ?? vars.ansible_pkg_mgr;
  if (typeof fact !== 'string') return undefined;
  return VALID.includes(fact) ? fact : 'auto';
}

export const yumModule: Module<YumArgs, DnfState> = {
  name: 'yum',
  doc: yumDoc,
  args: yumArgs,
  async run(a, ctx): Promise<ModuleResult> {
    const { use, use_backend: useBackend, ...rest } = a;
    const w = dnfWant(rest as DnfArgs);
    let chosen: string = use ?? useBackend ?? 'auto';
    // Without the fact Ansible asks the setup module for pkg_mgr; hostwire's pkg_mgr says dnf when the host has dnf.
    if (chosen === 'auto') chosen = factBackend(ctx.vars) ?? ((await ctx.probe(dnfProbe(w))).hasDnf ? 'dnf' : 'auto');
    if (chosen === 'auto') return { changed: false, failed: true, msg: DETECT_FAILED };
    if (chosen === 'yum') return { changed: false, failed: true, msg: "the yum3 backend (yum's Python 2 API) is not built: on a dnf host use_backend: dnf" };
    return runDnfWant(w, ctx);
  },
  readsAhead: (a) => [dnfProbe(dnfWant(a as unknown as DnfArgs))],
  environment: 'applies',
};
