// One read of a path: existence, type, mode, owner, group, symlink target and (optionally) the
// content as base64, so binary files survive the trip. A brace group, not a subshell: every fork
// costs the host ~1 ms and a fleet re-run reads hundreds of files. It only sets $f, so it may run
// inline in the batch's shell.
//
// Every command built here is also remembered as a FileRead, so the runner can recognise a batch's
// file reads and read them all with one `stat` and one `cat` (merged-read.ts) instead of two
// processes per file; run alone, the command prints the same lines itself.
import { inlineProbe } from '../../facts/batch.js';
import { quoteWord } from '../shell-words.js';
import type { Probe } from '../types.js';
import { parseStat, type FileStat } from './parse.js';

export interface FileRead {
  path: string;
  content: boolean;
  /** Read-only inline shell text whose output comes before the file's lines (sysctl's runtime value). */
  before?: string;
}

const reads = new Map<string, FileRead>();
// Commands are per host and path: bound the memory of a long run (a forgotten read just runs unmerged).
const MAX_REMEMBERED = 100_000;

export function statCommand(path: string, withContent: boolean): string {
  const content = withContent
    ? `elif [ -f "$f" ]; then printf 'content:'; base64 -w0 -- "$f"; printf '\\ncontent_rc:%s\\n' $?; `
    : '';
  return (
    `{ f=${quoteWord(path)}; if [ -e "$f" ] || [ -L "$f" ]; then stat -c 'stat:%F|%a|%U|%G|%u|%g' -- "$f"; ` +
    `if [ -L "$f" ]; then printf 'link:%s\\n' "$(readlink -- "$f")"; ${content}fi; else echo stat:absent; fi; }`
  );
}

/** The probe command of a file read (with its `before` part), remembered for merging. */
export function fileReadCommand(read: FileRead): string {
  const command = inlineProbe(`${read.before ? `${read.before}; ` : ''}${statCommand(read.path, read.content)}`);
  if (!reads.has(command)) {
    if (reads.size >= MAX_REMEMBERED) reads.clear();
    reads.set(command, read);
  }
  return command;
}

/** The file read a probe command was built from, if it was. */
export function fileReadOf(command: string): FileRead | undefined {
  return reads.get(command);
}

export function statProbe(path: string, withContent = true): Probe<FileStat> {
  return { command: fileReadCommand({ path, content: withContent }), parse: parseStat };
}
