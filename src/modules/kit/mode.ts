// File modes as Ansible takes them: an octal string ('0644', '644'), a number, which YAML 1.1
// already turned from 0644 into 420 - so a number is the permission value itself, as in Ansible -
// or a symbolic mode ('u=rwx,g=rx,o=rx', 'g-w'), kept as text and computed on the path's current
// mode when the plan is made (symbolic-mode.ts, resolveMode).
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { FileStat } from './file-stat.js';
import { isSymbolicMode, octalOf, symbolicModeProblem } from './symbolic-mode.js';

const modeSchema = (preserve: boolean) =>
  z
    .union([z.string(), z.number().int().min(0).max(0o7777, 'Invalid mode supplied, only permission info is allowed')])
    .superRefine((m, ctx) => {
      if (typeof m !== 'string' || /^0?[0-7]{3,4}$/.test(m) || (preserve && m === 'preserve')) return;
      const why = /^[0-7]+$/.test(m) ? "expected 3 or 4 octal digits like '0644'" : symbolicModeProblem(m);
      if (why) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `mode must be in octal or symbolic form (${why})` });
    })
    .transform((m): string => (typeof m === 'number' ? m.toString(8).padStart(4, '0') : /^[0-7]+$/.test(m) ? m.padStart(4, '0') : m));

export const modeArg = modeSchema(false);

/** copy's mode, which may also be 'preserve' (the mode of src). */
export const modeOrPreserveArg = modeSchema(true);

/** True when a mode as printed by `stat -c %a` ('644', '4755') equals the wanted octal string. */
export function sameMode(statMode: string, want: string): boolean {
  return parseInt(statMode, 8) === parseInt(want, 8);
}

/** '644' -> '0644', for messages and diffs. */
export const showMode = (m: string) => m.padStart(4, '0');

/** The mode a path is created with before its mode is set: 0666 (a directory 0777) less the umask. */
export const creationMode = (isDir: boolean, umask: number) => (isDir ? 0o777 : 0o666) & ~umask;

/**
 * The octal mode to set on a path: as given, or a symbolic one computed against the path's current mode
 * (a path still to be created: against its creation mode, `kind` telling what it will be).
 */
export function resolveMode(mode: string | undefined, st: FileStat, kind: 'file' | 'directory' = 'file'): string | undefined {
  if (!isSymbolicMode(mode)) return mode;
  if (st.exists && st.mode === undefined) return mode;
  const isDir = st.exists ? st.type === 'directory' : kind === 'directory';
  if (st.umask === undefined && (!st.exists || /(^|,)[+=-]/.test(mode))) {
    throw new HostwireError('bad-input', `mode ${mode}: the host's umask was not read (a module that takes symbolic modes must read it with the file)`);
  }
  const prev = st.exists ? parseInt(st.mode!, 8) : creationMode(isDir, st.umask!);
  return octalOf(mode, prev, isDir, st.umask);
}
