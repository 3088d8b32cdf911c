// ini_file: one option of an INI-style file (NetworkManager conf.d and keyfiles, /etc/default,
// /etc/sysconfig), computed purely from the old content and written atomically when it differs.
import { z } from 'zod';
import { withPathAliases } from '../kit/path-aliases.js';
import type { Module } from '../types.js';
import { fileAttrArgs, planTextEdit } from '../kit/file-content.js';
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
    ...fileAttrArgs,
  })
  .strict();

export type IniArgs = z.infer<typeof iniArgs>;

export const iniFileModule: Module<IniArgs, FileStat> = {
  name: 'ini_file',
  doc: iniFileDoc,
  args: withPathAliases(iniArgs, ['dest']),
  probe: (a) => statProbe(a.path, true, false, a.mode),
  plan: (st, a) => planTextEdit(st, a, (old) => editIni(old, { section: a.section, option: a.option, value: a.value, state: a.state, noExtraSpaces: a.no_extra_spaces })),
};
