// ini_file: one option of an INI-style file (NetworkManager conf.d and keyfiles, /etc/default,
// /etc/sysconfig), computed purely from the old content and written atomically when it differs.
import { z } from 'zod';
import { withPathAliases } from '../kit/path-aliases.js';
import { groupArg, ownerArg } from '../kit/account.js';
import { HostwireError } from '../../errors.js';
import type { Module } from '../types.js';
import { assertRegularFile, planContent } from '../kit/content-plan.js';
import { modeArg } from '../kit/mode.js';
import type { FileStat } from '../kit/file-stat.js';
import { statProbe } from '../kit/stat-probe.js';
import { editIni } from './edit.js';
import { oneLine } from '../kit/line-text.js';
import { iniFileDoc } from './doc.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const iniArgs = z
  .object({
    path: z.string().min(1),
    /** null or omitted: the options before the first [section] (files like /etc/default/*). */
    section: z.string().min(1).superRefine(oneLine('an INI section name')).nullish().transform((s) => s ?? null),
    // An '=' in the option name would make the line read as another option holding the rest.
    option: z.string().min(1).superRefine(oneLine('an INI option name')).refine((o) => !o.includes('='), "an INI option name cannot contain '='").optional(),
    value: scalar.superRefine(oneLine('an INI value')).optional(),
    state: z.enum(['present', 'absent']).default('present'),
    no_extra_spaces: z.boolean().default(false),
    create: z.boolean().default(true),
    backup: z.boolean().default(false),
    mode: modeArg.optional(),
    owner: ownerArg.optional(),
    group: groupArg.optional(),
  })
  .strict();

export type IniArgs = z.infer<typeof iniArgs>;

export const iniFileModule: Module<IniArgs, FileStat> = {
  name: 'ini_file',
  doc: iniFileDoc,
  args: withPathAliases(iniArgs, ['dest']),
  probe: (a) => statProbe(a.path),
  plan(st, a) {
    assertRegularFile(a.path, st);
    if (!st.exists && a.state === 'absent') return [];
    if (!st.exists && !a.create) throw new HostwireError('bad-input', `Destination ${a.path} does not exist (set create: yes to create it)`);
    const old = st.content?.toString('utf8') ?? '';
    const next = editIni(old, { section: a.section, option: a.option, value: a.value, state: a.state, noExtraSpaces: a.no_extra_spaces });
    const content = st.exists && next === old ? st.content! : next;
    return planContent(st, { path: a.path, content, mode: a.mode, owner: a.owner, group: a.group, backup: a.backup, createParent: true });
  },
};
