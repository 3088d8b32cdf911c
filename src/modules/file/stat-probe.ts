// One read of a path: existence, type, mode, owner, group, symlink target and (optionally) the
// content as base64, so binary files survive the trip. A brace group, not a subshell: every fork
// costs the host ~1 ms and a fleet re-run reads hundreds of files. It only sets $f, so it may run
// inline in the batch's shell.
import { inlineProbe } from '../../facts/batch.js';
import { quoteWord } from '../shell-words.js';
import type { Probe } from '../types.js';
import { parseStat, type FileStat } from './parse.js';

export function statCommand(path: string, withContent: boolean): string {
  const content = withContent
    ? `elif [ -f "$f" ]; then printf 'content:'; base64 -w0 -- "$f"; printf '\\ncontent_rc:%s\\n' $?; `
    : '';
  return (
    `{ f=${quoteWord(path)}; if [ -e "$f" ] || [ -L "$f" ]; then stat -c 'stat:%F|%a|%U|%G|%u|%g' -- "$f"; ` +
    `if [ -L "$f" ]; then printf 'link:%s\\n' "$(readlink -- "$f")"; ${content}fi; else echo stat:absent; fi; }`
  );
}

export function statProbe(path: string, withContent = true): Probe<FileStat> {
  return { command: inlineProbe(statCommand(path, withContent)), parse: parseStat };
}
