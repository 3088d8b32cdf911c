// group: a local group (ansible.builtin.group, ansible-core 2.14's generic Linux class: name, state,
// gid, system, local, non_unique; groupadd/groupmod/groupdel - lgroup* with local - as it runs them;
// its result name, state, changed, gid, system). The group is read with getent (NSS, as grp.getgrnam)
// or, with local, from /etc/group; the plan is pure; --check predicts.
import { z } from 'zod';
import { inlineProbe } from '../../probe/batch.js';
import { isValidAccount } from '../../transports/write-script.js';
import type { Change, Module, ModuleContext, ModuleResult } from '../types.js';
import type { Probe, ProbeOutput } from '../../probe/types.js';
import { ansibleBool, ansibleInt } from '../kit/ansible-args.js';
import { applyChanges } from '../kit/apply.js';
import { quoteWord } from '../kit/shell-words.js';
import { groupDoc } from './doc.js';

const groupArgs = z
  .object({
    name: z.string().refine(isValidAccount, { message: "expected a group name (letters, digits, '_', '-', not starting with '-', at most 32)" }),
    state: z.enum(['present', 'absent']).default('present'),
    gid: ansibleInt.optional(),
    system: ansibleBool.default(false),
    local: ansibleBool.default(false),
    non_unique: ansibleBool.default(false),
  })
  .strict()
  .refine((a) => !a.non_unique || a.gid !== undefined, { message: 'non_unique is True but all of the following are missing: gid' });

export type GroupArgs = z.infer<typeof groupArgs>;
export type GroupState = { exists: false } | { exists: true; gid: number };

/** getent's group line, or with local the last /etc/group line of the name (as group.py reads it). */
export function groupProbe(a: GroupArgs): Probe<GroupState> {
  const n = quoteWord(a.name);
  const read = a.local ? `grep -- ${quoteWord(`^${a.name}:`)} /etc/group | tail -n 1` : `getent group -- ${n}`;
  return { command: inlineProbe(`{ ${read}; }`), parse: parseGroup };
}

export function parseGroup(out: ProbeOutput): GroupState {
  const f = out.stdout.split('\n')[0]?.split(':') ?? [];
  return f.length >= 3 && /^\d+$/.test(f[2]!) ? { exists: true, gid: Number(f[2]) } : { exists: false };
}

export function planGroup(st: GroupState, a: GroupArgs): Change[] {
  const n = quoteWord(a.name);
  const l = a.local ? 'l' : '';
  const gidOpt = a.gid === undefined ? '' : ` -g ${a.gid}${a.non_unique ? ' -o' : ''}`;
  if (a.state === 'absent') return st.exists ? [{ summary: `remove group ${a.name}`, run: [`${l}groupdel -- ${n}`] }] : [];
  if (!st.exists) return [{ summary: `add group ${a.name}`, run: [`${l}groupadd${gidOpt}${a.system ? ' -r' : ''} -- ${n}`] }];
  if (a.gid !== undefined && st.gid !== a.gid) return [{ summary: `set gid ${a.gid} on group ${a.name}`, before: `gid: ${st.gid}\n`, after: `gid: ${a.gid}\n`, run: [`${l}groupmod${gidOpt} -- ${n}`] }];
  return [];
}

async function runGroup(a: GroupArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const changes = planGroup(await ctx.probe(groupProbe(a)), a);
  if (ctx.check) return changes.length && (a.state === 'absent' || changes[0]!.summary.startsWith('add')) ? { changed: true } : withInfo(a, ctx, changes.length > 0);
  if (changes.length) {
    try {
      await applyChanges(changes, ctx);
    } catch (e) {
      return { changed: false, failed: true, name: a.name, msg: (e as { stderr?: string }).stderr ?? (e as Error).message };
    }
  }
  return withInfo(a, ctx, changes.length > 0, true);
}

/** group.py's result: name, state, changed, and gid/system when the group exists after. */
async function withInfo(a: GroupArgs, ctx: ModuleContext, changed: boolean, reread = false): Promise<ModuleResult> {
  const after = reread ? await ctx.transport.exec(groupProbe(a).command, { become: ctx.become }).then((r) => parseGroup({ stdout: r.stdout, rc: r.code })) : await ctx.probe(groupProbe(a));
  return { name: a.name, state: a.state, changed, ...(after.exists ? { system: a.system, gid: after.gid } : {}) };
}

export const groupModule: Module<GroupArgs, GroupState> = {
  name: 'group',
  doc: groupDoc,
  args: groupArgs,
  environment: 'irrelevant',
  probe: groupProbe,
  plan: planGroup,
  run: runGroup,
  readsAhead: (a) => [groupProbe(a)],
};
