// template: render <role>/templates/<src> with the task's variables, then write it like copy.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Module } from '../types.js';
import { fileAttrArgs, planWholeFile } from '../kit/file-content.js';
import { validateArg } from '../kit/validate-command.js';
import type { FileStat } from '../kit/file-stat.js';
import { statProbe } from '../kit/stat-probe.js';
import { findSource } from '../kit/source.js';
import { templateDoc } from './doc.js';

const templateArgs = z
  .object({
    src: z.string().min(1),
    dest: z.string().min(1),
    ...fileAttrArgs,
    force: z.boolean().default(true),
    /** A command run on the new file (%s) before it replaces dest. */
    validate: validateArg.optional(),
  })
  .strict();

export type TemplateArgs = z.infer<typeof templateArgs>;

export const templateModule: Module<TemplateArgs, FileStat> = {
  name: 'template',
  doc: templateDoc,
  args: templateArgs,
  probe: (a) => statProbe(a.dest, true, true, a.mode),
  plan(st, a, ctx) {
    const source = findSource(ctx.baseDir, 'templates', a.src);
    const text = ctx.render(readFileSync(source, 'utf8'), source);
    return planWholeFile(st, a, text);
  },
};
