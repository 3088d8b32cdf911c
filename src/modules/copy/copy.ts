// copy: a file's content from `content` or from the role's files/, written atomically; changed
// only when the bytes or the attributes differ. backup: yes keeps `<dest>.<pid>.<timestamp>~` (backup_file);
// validate checks the new file before it replaces dest. remote_src: src is a file or a directory on the
// host itself, compared and copied there (remote-read.ts, remote-file.ts, remote-tree.ts).
import { statSync } from 'node:fs';
import { z } from 'zod';
import type { Module } from '../types.js';
import { ansibleBool } from '../kit/ansible-args.js';
import { fileAttrArgs, planWholeFile } from '../kit/file-content.js';
import { modeArg, modeOrPreserveArg, showMode } from '../kit/mode.js';
import { validateArg } from '../kit/validate-command.js';
import type { FileStat } from '../kit/file-stat.js';
import { statProbe } from '../kit/stat-probe.js';
import { findSource } from '../kit/source.js';
import { readFileSync } from 'node:fs';
import { fail, planRemoteFile } from './remote-file.js';
import { remoteCopyProbe, type RemoteCopyState } from './remote-read.js';
import { planRemoteTree } from './remote-tree.js';
import { copyDoc } from './doc.js';

const copyArgs = z
  .object({
    dest: z.string().min(1),
    content: z.string().optional(),
    src: z.string().min(1).optional(),
    ...fileAttrArgs,
    /** preserve: the mode of src (Ansible's mode=preserve). */
    mode: modeOrPreserveArg.optional(),
    /** no: only create the file when it is missing, never replace its content. */
    force: z.boolean().default(true),
    /** A command run on the new file (%s) before it replaces dest. */
    validate: validateArg.optional(),
    /** src is a path on the managed host (a file or a directory). */
    remote_src: ansibleBool.default(false),
    /** The mode of the directories created for a dest ending with '/' (remote_src). */
    directory_mode: modeArg.optional(),
  })
  .strict()
  .refine((a) => (a.content === undefined) !== (a.src === undefined), { message: "expected exactly one of 'content' or 'src'" })
  .refine((a) => a.content === undefined || a.mode !== 'preserve', { message: "mode 'preserve' needs src (the file whose mode is kept)", path: ['mode'] });

export type CopyArgs = z.infer<typeof copyArgs>;

/** remote_src applies to a src (with content, Ansible's action plugin writes the content as usual). */
const isRemote = (a: CopyArgs) => a.remote_src && a.src !== undefined;

export const copyModule: Module<CopyArgs, FileStat | RemoteCopyState> = {
  name: 'copy',
  doc: copyDoc,
  args: copyArgs,
  probe: (a) => (isRemote(a) ? remoteCopyProbe(a.src!, a.dest) : statProbe(a.dest, true, true, a.mode === 'preserve' ? undefined : a.mode)),
  plan(st, a, ctx) {
    if ('remote' in st) {
      if (!st.src.exists) throw fail(`Source ${a.src} not found`);
      const mode = a.mode === 'preserve' ? showMode(st.src.mode!) : a.mode;
      const args = { ...a, src: a.src!, mode };
      return st.src.isDir ? planRemoteTree(st, args) : planRemoteFile(st, args);
    }
    if (a.content !== undefined) return planWholeFile(st, { ...a, mode: a.mode === 'preserve' ? undefined : a.mode }, a.content);
    const source = findSource(ctx.baseDir, 'files', a.src!);
    // mode=preserve: the controller file's permission bits, as the action plugin reads them.
    const mode = a.mode === 'preserve' ? showMode((statSync(source).mode & 0o7777).toString(8)) : a.mode;
    return planWholeFile(st, { ...a, mode }, readFileSync(source));
  },
};
