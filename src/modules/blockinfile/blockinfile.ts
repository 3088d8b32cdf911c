// blockinfile: a marked block of lines in a file (ansible.builtin.blockinfile, ansible-core 2.14:
// its arguments, aliases and defaults, its edit (edit.ts) and failures). The file is read in the
// play's batched read, the plan is pure, the write goes through the verified install; --check
// predicts and --diff shows the whole file before and after, as Ansible does.
// Differences: `validate` is refused (not run), and a symlink at `path` is refused (Ansible edits its
// target), as hostwire's other file editors do.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Change, Module } from '../types.js';
import { groupArg, ownerArg } from '../kit/account.js';
import { planContent } from '../kit/content-plan.js';
import { modeArg } from '../kit/mode.js';
import type { FileStat } from '../kit/file-stat.js';
import { statProbe } from '../kit/stat-probe.js';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';
import { pyRegexArg } from '../kit/py-regex.js';
import { editBlock } from './edit.js';
import { blockinfileDoc } from './doc.js';

const blockinfileArgs = withAliases(
  z
    .object({
      path: z.string().min(1),
      state: z.enum(['present', 'absent']).default('present'),
      marker: z.string().default('# {mark} ANSIBLE MANAGED BLOCK'),
      block: z.string().default(''),
      insertafter: pyRegexArg.optional(),
      insertbefore: pyRegexArg.optional(),
      create: ansibleBool.default(false),
      backup: ansibleBool.default(false),
      validate: z.string().optional(),
      marker_begin: z.string().default('BEGIN'),
      marker_end: z.string().default('END'),
      mode: modeArg.optional(),
      owner: ownerArg.optional(),
      group: groupArg.optional(),
    })
    .strict()
    .refine((a) => a.insertafter === undefined || a.insertbefore === undefined, { message: "parameters are mutually exclusive: insertbefore|insertafter" })
    .refine((a) => a.validate === undefined, { message: "'validate' is not supported by hostwire's blockinfile (the file would be installed unchecked); check the file in a later task", path: ['validate'] }),
  { path: ['dest', 'destfile', 'name'], block: ['content'] },
);

export type BlockinfileArgs = z.infer<typeof blockinfileArgs>;

export function planBlockinfile(st: FileStat, a: BlockinfileArgs): Change[] {
  if (st.exists && st.type === 'directory') throw new HostwireError('bad-input', `Path ${a.path} is a directory !`);
  // As blockinfile.py: a missing file without create fails even for state absent.
  if (!st.exists && !a.create) throw new HostwireError('bad-input', `Path ${a.path} does not exist !`);
  if (!st.exists && a.state === 'absent') return [];
  const original = st.content?.toString('latin1');
  const next = editBlock(original, a);
  const content = next === original ? st.content! : Buffer.from(next, 'latin1');
  return planContent(st, { path: a.path, content, mode: a.mode, owner: a.owner, group: a.group, backup: a.backup, createParent: true });
}

export const blockinfileModule: Module<BlockinfileArgs, FileStat> = {
  name: 'blockinfile',
  doc: blockinfileDoc,
  args: blockinfileArgs,
  environment: 'irrelevant',
  probe: (a) => statProbe(a.path, true, false, a.mode),
  plan: (st, a) => planBlockinfile(st, a),
};
