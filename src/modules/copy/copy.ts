// copy: a file's content from `content` or from the role's files/, written atomically; changed
// only when the bytes or the attributes differ. backup: yes keeps `<dest>.<pid>.<timestamp>~` (backup_file);
// validate checks the new file before it replaces dest.
import { z } from 'zod';
import type { Module } from '../types.js';
import { fileAttrArgs, planWholeFile } from '../kit/file-content.js';
import { validateArg } from '../kit/validate-command.js';
import type { FileStat } from '../kit/file-stat.js';
import { statProbe } from '../kit/stat-probe.js';
import { readSource } from '../kit/source.js';
import { copyDoc } from './doc.js';

const copyArgs = z
  .object({
    dest: z.string().min(1),
    content: z.string().optional(),
    src: z.string().min(1).optional(),
    ...fileAttrArgs,
    /** no: only create the file when it is missing, never replace its content. */
    force: z.boolean().default(true),
    /** A command run on the new file (%s) before it replaces dest. */
    validate: validateArg.optional(),
  })
  .strict()
  .refine((a) => (a.content === undefined) !== (a.src === undefined), { message: "expected exactly one of 'content' or 'src'" });

export type CopyArgs = z.infer<typeof copyArgs>;

export const copyModule: Module<CopyArgs, FileStat> = {
  name: 'copy',
  doc: copyDoc,
  args: copyArgs,
  probe: (a) => statProbe(a.dest, true, true, a.mode),
  plan(st, a, ctx) {
    const content = a.content !== undefined ? a.content : readSource(ctx.baseDir, 'files', a.src!);
    return planWholeFile(st, a, content);
  },
};
