// One read of a path: existence, type, mode, owner, group, symlink target and (optionally) the
// content as base64, so binary files survive the trip. The read itself, merged or alone, is the
// read protocol's files kind (../../probe/kinds/files.ts); this gives it the parser modules share.
import type { Probe } from '../../probe/types.js';
import { fileRead } from '../../probe/kinds/files.js';
import { parseStat, type FileStat } from './file-stat.js';
import { isSymbolicMode } from './symbolic-mode.js';

/** The shell's umask, printed before the stat (`umask:0022`): a builtin, no process. */
export const UMASK_LINE = "printf 'umask:'; umask";

/**
 * `digestLarge`: a file over LARGE_FILE_BYTES comes back as size + sha256 instead of its content (copy,
 * template). `mode`: the task's mode; a symbolic one has the umask read too (symbolic-mode.ts).
 */
export function statProbe(path: string, withContent = true, digestLarge = false, mode?: string): Probe<FileStat> {
  return { ...fileRead({ path, content: withContent, digestLarge, ...(isSymbolicMode(mode) ? { before: UMASK_LINE } : {}) }), parse: parseStat };
}
