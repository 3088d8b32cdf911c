// The glue of the modules that write a whole file (copy, template) or edit its text (lineinfile,
// ini_file): their shared attribute arguments and the plan around planContent, so each module
// keeps only what is its own (where the content comes from, how the text is edited).
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Change } from '../types.js';
import { groupArg, ownerArg } from './account.js';
import { assertRegularFile, planContent } from './content-plan.js';
import type { FileStat } from './file-stat.js';
import { modeArg } from './mode.js';
import { validateCommand } from './validate-command.js';

/** mode, owner, group and backup, as every file-writing module takes them. */
export const fileAttrArgs = {
  mode: modeArg.optional(),
  owner: ownerArg.optional(),
  group: groupArg.optional(),
  backup: z.boolean().default(false),
};

interface FileAttrs {
  mode?: string;
  owner?: string;
  group?: string;
  backup: boolean;
}

const attrsOf = (a: FileAttrs) => ({ mode: a.mode, owner: a.owner, group: a.group, backup: a.backup });

/** copy, template: `dest` gets exactly `content` (after `validate` passed on it); force: no leaves an existing file alone. */
export function planWholeFile(st: FileStat, a: FileAttrs & { dest: string; force: boolean; validate?: string }, content: string | Buffer): Change[] {
  if (st.exists && !a.force) return [];
  const validate = a.validate === undefined ? {} : { validate: validateCommand(a.validate) };
  return planContent(st, { path: a.dest, content, ...attrsOf(a), ...validate, skipLargeDiff: true });
}

/** lineinfile, ini_file: the file's text after `edit`; a missing file is created only with create: yes. */
export function planTextEdit(
  st: FileStat,
  a: FileAttrs & { path: string; state: 'present' | 'absent'; create: boolean },
  edit: (old: string) => string,
): Change[] {
  assertRegularFile(a.path, st);
  if (!st.exists && a.state === 'absent') return [];
  if (!st.exists && !a.create) throw new HostwireError('bad-input', `Destination ${a.path} does not exist (set create: yes to create it)`);
  const old = st.content?.toString('utf8') ?? '';
  const next = edit(old);
  // Unchanged text keeps the original bytes, so a file that is not valid UTF-8 is not rewritten.
  const content = st.exists && next === old ? st.content! : next;
  return planContent(st, { path: a.path, content, ...attrsOf(a), createParent: true });
}
