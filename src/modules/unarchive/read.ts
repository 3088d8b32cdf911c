// unarchive's read of the host, one exec: the archive streamed into a private temp folder (0700,
// unless remote_src), then - as sections - the checks main() makes (src readable and not empty, dest a
// folder), tar's flavour, the uid, and for the first handler whose --list works: the verbose listing
// and `tar --diff` (TgzArchive.is_unarchived). The parse is pure; the decision is in judge.ts.
import { ProbeParseError } from '../../errors.js';
import { need, readSections, section } from '../../probe/sections.js';
import { quoteWord } from '../kit/shell-words.js';
import type { UnarchiveArgs } from './args.js';
import { HANDLERS, tarWords, type HandlerName } from './tar-command.js';

const LIST_OPTS = ['--verbose', '--full-time', '--numeric-owner', '--quoting-style=c'];

export function readScript(a: UnarchiveArgs): string {
  const lines = a.remote_src
    ? [`src=${quoteWord(a.src)}`]
    : [
        'umask 077',
        `d=$(mktemp -d "\${TMPDIR:-/tmp}/hostwire-unarchive.XXXXXXXX") || exit 1`,
        'src="$d/source"',
        'cat > "$src" || { rm -rf -- "$d"; exit 1; }',
        `echo "::tmp $d"`,
      ];
  lines.push(
    section('src', '[ -e "$src" ] || echo missing; [ -r "$src" ] || echo unreadable; [ -s "$src" ] || echo empty; true'),
    section('dest', `[ -d ${quoteWord(a.dest)} ] && echo dir; true`),
    section('tar', 'tar --version | head -n 1'),
    section('uid', 'id -u'),
    'h=',
  );
  for (const h of HANDLERS) {
    const list = ['LC_ALL=C', 'tar', ...tarWords('list', a, h.flag, '"$src"').slice(0, 1), ...LIST_OPTS, ...tarWords('list', a, h.flag, '"$src"').slice(1)].join(' ');
    const diff = ['LC_ALL=C', 'tar', ...tarWords('diff', a, h.flag, '"$src"')].join(' ');
    lines.push(
      `if [ -z "$h" ] && [ -d ${quoteWord(a.dest)} ]; then echo '::sec list ${h.name}'; { ${list}; } 2>&1; r=$?; echo "::rc $r"`,
      `  if [ "$r" = 0 ]; then h=${h.name}; ${section('diff', diff)}; fi; fi`,
    );
  }
  return lines.join('\n');
}

export interface ReadOut {
  /** The private folder holding the uploaded archive (to remove), when not remote_src. */
  tmp?: string;
  srcProblems: string[];
  destIsDir: boolean;
  tarVersion: string;
  uid: number;
  /** Each tried handler's listing (output with stderr folded in, rc). */
  lists: { handler: HandlerName; out: string; rc: number }[];
  diff?: { out: string; rc: number };
}

export function parseRead(stdout: string): ReadOut {
  const s = readSections(stdout);
  const tmp = /^::tmp (.+)$/m.exec(stdout)?.[1];
  const uid = Number(need(s, 'uid', stdout).out.trim());
  if (!Number.isInteger(uid)) throw new ProbeParseError('unexpected id -u output', stdout);
  const lists = HANDLERS.flatMap((h) => {
    const l = s.get(`list ${h.name}`);
    return l ? [{ handler: h.name, out: l.out, rc: l.rc }] : [];
  });
  const diff = s.get('diff');
  return {
    ...(tmp !== undefined ? { tmp } : {}),
    srcProblems: need(s, 'src', stdout).out.split('\n').filter(Boolean),
    destIsDir: need(s, 'dest', stdout).out.trim() === 'dir',
    tarVersion: need(s, 'tar', stdout).out.split('\n')[0] ?? '',
    uid,
    lists,
    ...(diff ? { diff: { out: diff.out, rc: diff.rc } } : {}),
  };
}
