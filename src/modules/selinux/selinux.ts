// ansible.posix.selinux (1.5.4) natively, without libselinux on the host: the runtime mode read from
// selinuxfs, the policy libselinux reports (SELINUXTYPE of /etc/selinux/config) and the config file's
// SELINUX/SELINUXTYPE, judged as the module's main() does - the same checks, messages, warnings,
// reboot_required and check-mode exits. The config file is rewritten as the module rewrites it, in one
// atomic write (temp file + rename, its mode and owner kept); the runtime mode is set through
// /sys/fs/selinux/enforce. update_kernel_param (grubby) is refused by name. See plan.ts.
import { HostwireError } from '../../errors.js';
import { applyChanges } from '../kit/apply.js';
import type { Probe } from '../../probe/types.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { selinuxDoc } from './doc.js';
import { planSelinux, type SelinuxHave } from './plan.js';
import { configRead, parseConfig, parseRuntime, parseYes, policyRead, runtimeRead, SYSTEM_CONFIG } from './read.js';
import { selinuxArgs, type SelinuxArgs } from './args.js';

export type { SelinuxArgs };


function selinuxProbe(a: SelinuxArgs): Probe<SelinuxHave> {
  const parts = [runtimeRead(), configRead('config', a.configfile), ...(a.configfile !== SYSTEM_CONFIG ? [configRead('system', SYSTEM_CONFIG)] : []), ...(a.policy ? [policyRead(a.policy)] : [])];
  return {
    command: parts.join('; '),
    parse: (o) => {
      const config = parseConfig(o.stdout, 'config');
      const system = a.configfile === SYSTEM_CONFIG ? config : parseConfig(o.stdout, 'system');
      return { runtime: parseRuntime(o.stdout), config, system, policyInstalled: a.policy ? parseYes(o.stdout, 'policy') : false };
    },
  };
}

async function runSelinux(a: SelinuxArgs, ctx: ModuleContext): Promise<ModuleResult> {
  if (a.update_kernel_param) return { changed: false, failed: true, msg: "update_kernel_param (grubby's kernel arguments) is not built in hostwire's selinux" };
  let have: SelinuxHave;
  try {
    have = await ctx.probe(selinuxProbe(a));
  } catch (e) {
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message };
    throw e;
  }
  const plan = planSelinux(have, a, ctx.check);
  if (!ctx.check && plan.changes.length) await applyChanges(plan.changes, ctx);
  const diff = ctx.diff && plan.changes.length ? { diff: plan.changes.map((c) => ({ before: c.before, after: c.after, header: c.summary })) } : {};
  return { ...plan.result, ...diff };
}

export const selinuxModule: Module<SelinuxArgs> = {
  name: 'selinux',
  doc: selinuxDoc,
  args: selinuxArgs,
  run: runSelinux,
  readsAhead: (a) => (a.update_kernel_param ? [] : [selinuxProbe(a)]),
};
