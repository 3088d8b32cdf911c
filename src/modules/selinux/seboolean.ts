// ansible.posix.seboolean (1.5.4) natively, without libselinux/libsemanage on the host: the runtime
// mode and the boolean's value from selinuxfs, judged as the module does ("SELinux is disabled on this
// host." unless ignore_selinux_state, "SELinux boolean NAME does not exist."); a runtime change writes
// the boolean and commits pending booleans through selinuxfs (security_set_boolean +
// security_commit_booleans); persistent is judged by the value in the policy store (as the module's
// semanage_bool_query: a runtime-only change does not make it persistent) and set with setsebool -P
// (policycoreutils: the store and the runtime value, as the module's modify_local + set_active).
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { ansibleBool } from '../kit/ansible-args.js';
import { applyChanges } from '../kit/apply.js';
import { shellJoin, shellQuote } from '../../transports/quote.js';
import type { Probe } from '../../probe/types.js';
import type { Change, Module, ModuleContext, ModuleResult } from '../types.js';
import { sebooleanDoc } from './seboolean-doc.js';
import { booleanRead, parseBoolean, parsePersistent, parseRuntime, persistentRead, runtimeRead, type RuntimeState } from './read.js';

const sebooleanArgs = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_]+$/, 'expected an SELinux boolean name (letters, digits, _)'),
    state: ansibleBool,
    persistent: ansibleBool.default(false),
    ignore_selinux_state: ansibleBool.default(false),
  })
  .strict();
export type SebooleanArgs = z.infer<typeof sebooleanArgs>;

interface BoolHave {
  runtime: RuntimeState;
  value?: boolean;
  /** Read when persistent: the policy store's value. */
  stored?: ReturnType<typeof parsePersistent>;
}

const boolProbe = (a: SebooleanArgs): Probe<BoolHave> => ({
  command: `${runtimeRead()}; ${booleanRead(a.name)}`,
  parse: (o) => ({ runtime: parseRuntime(o.stdout), value: parseBoolean(o.stdout) }),
});

// Read only once SELinux is on and the boolean exists, as the module consults semanage only then.
const storeProbe = (a: SebooleanArgs): Probe<ReturnType<typeof parsePersistent>> => ({
  command: persistentRead(a.name),
  parse: (o) => parsePersistent(o.stdout, a.name),
});

/** The module's result (or failure) and the change it makes. */
export function planSeboolean(h: BoolHave, a: SebooleanArgs): { result: ModuleResult; change?: Change } {
  const fail = (msg: string) => ({ result: { changed: false, failed: true, msg } });
  if (h.runtime === 'disabled' && !a.ignore_selinux_state) return fail('SELinux is disabled on this host.');
  // With SELinux off and the check ignored, libselinux cannot list the booleans.
  if (h.runtime === 'disabled') return fail('Failed to get list of boolean names');
  if (h.value === undefined) return fail(`SELinux boolean ${a.name} does not exist.`);
  if (a.persistent && h.stored === 'unmanaged') return fail('Cannot set persistent booleans without managed policy');
  if (a.persistent && h.stored === 'undefined') return fail(`SELinux boolean ${a.name} is not defined in persistent policy`);
  const current = a.persistent ? h.stored : h.value;
  const result = { name: a.name, persistent: a.persistent, state: a.state, changed: current !== a.state };
  if (!result.changed) return { result };
  const bit = a.state ? '1' : '0';
  const run = a.persistent
    ? [shellJoin(['setsebool', '-P', '--', a.name, a.state ? 'on' : 'off'])]
    : [`printf %s ${bit} > ${shellQuote(`/sys/fs/selinux/booleans/${a.name}`)} && printf 1 > /sys/fs/selinux/commit_pending_bools`];
  return { result, change: { summary: `SELinux boolean ${a.name} ${a.state ? 'on' : 'off'}${a.persistent ? ' (persistent)' : ''}`, before: `${current ? 'on' : 'off'}\n`, after: `${a.state ? 'on' : 'off'}\n`, run } };
}

async function runSeboolean(a: SebooleanArgs, ctx: ModuleContext): Promise<ModuleResult> {
  let have: BoolHave;
  try {
    have = await ctx.probe(boolProbe(a));
    if (a.persistent && have.runtime !== 'disabled' && have.value !== undefined) have = { ...have, stored: await ctx.probe(storeProbe(a)) };
  } catch (e) {
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message };
    throw e;
  }
  const { result, change } = planSeboolean(have, a);
  if (change && !ctx.check) await applyChanges([change], ctx);
  return { ...result, ...(change && ctx.diff ? { diff: [{ before: change.before, after: change.after }] } : {}) };
}

export const sebooleanModule: Module<SebooleanArgs> = {
  name: 'seboolean',
  doc: sebooleanDoc,
  args: sebooleanArgs,
  run: runSeboolean,
  readsAhead: (a) => [boolProbe(a)],
};
