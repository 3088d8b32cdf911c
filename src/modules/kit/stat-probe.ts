// One read of a path: existence, type, mode, owner, group, symlink target and (optionally) the
// content as base64, so binary files survive the trip. A brace group, not a subshell: every fork
// costs the host ~1 ms and a fleet re-run reads hundreds of files. It only sets $f (and $s), so it
// may run inline in the batch's shell. With digestLarge, a file over LARGE_FILE_BYTES is read as
// `digest:<size>:<sha256>` instead (large-file.ts).
//
// Every command built here is also mergeable (../../probe/merge.ts): the runner reads a batch's
// files with one `stat` and one `cat` (merged-read.ts) instead of two processes per file; run
// alone, the command prints the same lines itself.
import { inlineProbe } from '../../probe/batch.js';
import { mergeableCommand } from '../../probe/merge.js';
import { quoteWord } from './shell-words.js';
import type { Probe } from '../../probe/types.js';
import { fileReadKind, type FileRead } from './file-merged-read.js';
import { LARGE_FILE_BYTES } from './large-file.js';
import { parseStat, type FileStat } from './file-stat.js';

export function statCommand(path: string, withContent: boolean, digestLarge = false): string {
  const base64 = `printf 'content:'; base64 -w0 -- "$f"; printf '\\ncontent_rc:%s\\n' $?;`;
  const digest = `printf 'digest:%s:' "$s"; sha256sum < "$f"; printf 'content_rc:%s\\n' $?;`;
  const content = !withContent
    ? ''
    : digestLarge
      ? `elif [ -f "$f" ]; then s=$(stat -c %s -- "$f"); if [ "$s" -gt ${LARGE_FILE_BYTES} ]; then ${digest} else ${base64} fi; `
      : `elif [ -f "$f" ]; then ${base64} `;
  return (
    `{ f=${quoteWord(path)}; if [ -e "$f" ] || [ -L "$f" ]; then stat -c 'stat:%F|%a|%U|%G|%u|%g' -- "$f"; ` +
    `if [ -L "$f" ]; then printf 'link:%s\\n' "$(readlink -- "$f")"; ${content}fi; else echo stat:absent; fi; }`
  );
}

/** The probe command of a file read; `before`: read-only inline shell text printed first (sysctl's runtime value). */
export function fileReadCommand(read: FileRead & { before?: string }): string {
  const item: FileRead = { path: read.path, content: read.content, ...(read.digestLarge ? { digestLarge: true } : {}) };
  return mergeableCommand(inlineProbe(`${read.before ? `${read.before}; ` : ''}${statCommand(read.path, read.content, read.digestLarge)}`), fileReadKind, item, { before: read.before });
}

/** `digestLarge`: a file over LARGE_FILE_BYTES comes back as size + sha256 instead of its content (copy, template). */
export function statProbe(path: string, withContent = true, digestLarge = false): Probe<FileStat> {
  return { command: fileReadCommand({ path, content: withContent, digestLarge }), parse: parseStat };
}
