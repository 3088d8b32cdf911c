// One read of a path: existence, type, mode, owner, group, symlink target and (optionally) the
// content as base64, so binary files survive the trip. The read itself, merged or alone, is the
// read protocol's files kind (../../probe/kinds/files.ts); this gives it the parser modules share.
import type { Probe } from '../../probe/types.js';
import { fileRead } from '../../probe/kinds/files.js';
import { parseStat, type FileStat } from './file-stat.js';

/** `digestLarge`: a file over LARGE_FILE_BYTES comes back as size + sha256 instead of its content (copy, template). */
export function statProbe(path: string, withContent = true, digestLarge = false): Probe<FileStat> {
  return { ...fileRead({ path, content: withContent, digestLarge }), parse: parseStat };
}
