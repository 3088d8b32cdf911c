// lineinfile: make sure one line is (or is not) in a file, leaving every other line alone.
import { z } from 'zod';
import { withPathAliases } from '../kit/path-aliases.js';
import type { Module } from '../types.js';
import { fileAttrArgs, planTextEdit } from '../kit/file-content.js';
import type { FileStat } from '../kit/file-stat.js';
import { statProbe } from '../kit/stat-probe.js';
import { editLines, pyRegex } from './edit.js';
import { oneLine } from '../kit/line-text.js';
import { lineinfileDoc } from './doc.js';

const regex = z.string().refine((r) => {
  try {
    pyRegex(r);
    return true;
  } catch {
    return false;
  }
}, 'expected a valid regular expression');

const lineinfileArgs = z
  .object({
    path: z.string().min(1),
    // One line: a newline inside would also never match on the next run (appended again each time).
    line: z.string().superRefine(oneLine("lineinfile's line")).optional(),
    regexp: regex.optional(),
    state: z.enum(['present', 'absent']).default('present'),
    insertafter: regex.optional(),
    insertbefore: regex.optional(),
    firstmatch: z.boolean().default(false),
    backrefs: z.boolean().default(false),
    create: z.boolean().default(false),
    ...fileAttrArgs,
  })
  .strict()
  .refine((a) => a.state === 'absent' || a.line !== undefined, { message: "state 'present' requires 'line'", path: ['line'] })
  .refine((a) => a.state === 'present' || a.line !== undefined || a.regexp !== undefined, { message: "state 'absent' requires 'line' or 'regexp'", path: ['regexp'] })
  .refine((a) => a.insertafter === undefined || a.insertbefore === undefined, { message: "'insertafter' and 'insertbefore' are mutually exclusive" });

export type LineinfileArgs = z.infer<typeof lineinfileArgs>;

export const lineinfileModule: Module<LineinfileArgs, FileStat> = {
  name: 'lineinfile',
  doc: lineinfileDoc,
  args: withPathAliases(lineinfileArgs, ['dest', 'destfile', 'name']),
  probe: (a) => statProbe(a.path, true, false, a.mode),
  plan: (st, a) => planTextEdit(st, a, (old) => editLines(old, a)),
};
