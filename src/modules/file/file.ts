// file: a path's kind (file, directory, link, absent, touch) and its mode/owner/group.
// `touch` creates a missing file and fixes attributes but keeps timestamps, so it converges
// (Ansible's touch with modification_time/access_time: preserve).
import { z } from 'zod';
import { withPathAliases } from '../kit/path-aliases.js';
import { groupArg, ownerArg } from '../kit/account.js';
import { HostwireError } from '../../errors.js';
import { chownSpec } from '../../transports/write-script.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Change, Module } from '../types.js';
import { planAttrs } from '../kit/attrs.js';
import { modeArg, resolveMode, showMode } from '../kit/mode.js';
import { parseStat, type FileStat } from '../kit/file-stat.js';
import { statProbe, UMASK_LINE } from '../kit/stat-probe.js';
import { isSymbolicMode } from '../kit/symbolic-mode.js';
import { ansibleBool } from '../kit/ansible-args.js';
import { fileRead } from '../../probe/kinds/files.js';
import type { Probe } from '../../probe/types.js';
import { parseTree, planTree, treeListing, type TreeEntry } from './tree.js';
import { fileDoc } from './doc.js';

const fileArgs = z
  .object({
    path: z.string().min(1),
    state: z.enum(['file', 'directory', 'absent', 'link', 'touch']).optional(),
    src: z.string().min(1).optional(),
    mode: modeArg.optional(),
    owner: ownerArg.optional(),
    group: groupArg.optional(),
    /** Replace a file or directory standing where a link should be. */
    force: z.boolean().default(false),
    /** state directory: mode/owner/group on everything under it too (tree.ts). */
    recurse: ansibleBool.default(false),
  })
  .strict()
  // Ansible's default state: directory with recurse, else file (for a path that does not exist).
  .transform((a) => ({ ...a, state: a.state ?? (a.recurse ? 'directory' : 'file') }))
  .refine((a) => a.state !== 'link' || a.src !== undefined, { message: "state 'link' requires 'src' (the link target)", path: ['src'] })
  .refine((a) => !a.recurse || a.state === 'directory', { message: "recurse option requires state to be 'directory'", path: ['recurse'] });

export type FileArgs = z.infer<typeof fileArgs>;

/** The path, and with recurse what lies under it. */
export type FileState = FileStat & { tree?: TreeEntry[] };

const describe = (st: FileStat) =>
  st.exists ? `state: ${st.type}\n${st.type === 'link' ? `src: ${st.target}\n` : `mode: ${showMode(st.mode!)}\n`}` : 'state: absent\n';

export function planFile(st: FileState, a: FileArgs): Change[] {
  const changes = planPath(st, a);
  if (!a.recurse || (a.mode === undefined && a.owner === undefined && a.group === undefined)) return changes;
  return [...changes, ...planTree(a.path, st.tree ?? [], { mode: a.mode, owner: a.owner, group: a.group, umask: st.umask })];
}

function planPath(st: FileStat, a: FileArgs): Change[] {
  const p = quoteWord(a.path);
  const attrs = { mode: a.mode, owner: a.owner, group: a.group };
  const fail = (msg: string) => {
    throw new HostwireError('bad-input', msg);
  };
  switch (a.state) {
    case 'absent':
      return st.exists ? [{ summary: `remove ${a.path}`, before: describe(st), after: 'state: absent\n', run: [`rm -rf -- ${p}`] }] : [];
    case 'file':
      if (!st.exists) fail(`file (${a.path}) is absent, cannot continue (use state: touch to create it)`);
      if (st.type !== 'file') fail(`${a.path} is a ${st.type}, not a file`);
      return planAttrs(a.path, st, attrs);
    case 'directory':
    case 'touch': {
      const want = a.state === 'directory' ? 'directory' : 'file';
      if (st.exists && st.type !== want) fail(`${a.path} exists but is a ${st.type}, not a ${want}`);
      if (st.exists) return planAttrs(a.path, st, attrs);
      const create = a.state === 'directory' ? `mkdir -p -- ${p}` : `touch -- ${p}`;
      // A symbolic mode applies to the mode the path is created with.
      const mode = resolveMode(a.mode, st, want);
      const fixed = { exists: true, type: want, mode: '0', owner: '', group: '' } as const;
      const rest = planAttrs(a.path, fixed, { ...attrs, mode }).flatMap((c) => c.run);
      return [{ summary: `create ${want} ${a.path}`, before: 'state: absent\n', after: `state: ${want}\n${mode ? `mode: ${mode}\n` : ''}`, run: [create, ...rest] }];
    }
    case 'link': {
      const src = a.src!;
      if (st.exists && st.type === 'link' && st.target === src) return planAttrs(a.path, st, { owner: a.owner, group: a.group });
      if (st.exists && st.type !== 'link' && !a.force) fail(`refusing to replace the ${st.type} ${a.path} with a link (set force: yes)`);
      const run = st.exists && st.type !== 'link' ? [`rm -rf -- ${p}`] : [];
      run.push(`ln -sfn -- ${quoteWord(src)} ${p}`);
      const spec = chownSpec(a.owner, a.group);
      if (spec !== undefined) run.push(`chown -h -- ${quoteWord(spec)} ${p}`);
      return [{ summary: `link ${a.path} -> ${src}`, before: describe(st), after: `state: link\nsrc: ${src}\n`, run }];
    }
  }
}

function fileProbe(a: FileArgs): Probe<FileState> {
  if (!a.recurse) return statProbe(a.path, false, false, a.mode);
  const umask = isSymbolicMode(a.mode) ? `${UMASK_LINE}; ` : '';
  return { ...fileRead({ path: a.path, content: false, before: `${umask}${treeListing(a.path)}` }), parse: (o) => ({ ...parseStat(o), tree: parseTree(o.stdout) }) };
}

export const fileModule: Module<FileArgs, FileState> = {
  name: 'file',
  doc: fileDoc,
  args: withPathAliases(fileArgs, ['dest', 'name']),
  probe: fileProbe,
  plan: (st, a) => planFile(st, a),
};
