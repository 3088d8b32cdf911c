// get_url's read of dest (batched, read ahead): a folder, a file (its attributes, mtime, sha1 and the
// checksum argument's digest) or nothing (and whether its folder exists).
import { inlineProbe } from '../../probe/batch.js';
import { ProbeParseError } from '../../errors.js';
import type { Probe, ProbeOutput } from '../../probe/types.js';
import type { FileStat } from '../kit/file-stat.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Algorithm } from './checksum.js';

export type DestRead =
  | { kind: 'dir' }
  | { kind: 'none'; parentExists: boolean }
  | { kind: 'file'; stat: FileStat; size: number; mtime: number; sha1: string; digest?: string };

/** The file read of one path: attributes, then its sha1 and (when given) the algorithm's digest. */
export function fileReadCommand(path: string, algorithm?: Algorithm): string {
  const sum = algorithm ? `; printf 'digest:'; ${algorithm}sum < "$f"` : '';
  return (
    `f=${quoteWord(path)}; if [ -d "$f" ]; then echo kind:dir; elif [ -e "$f" ]; then echo kind:file; ` +
    `printf 'stat:'; LC_ALL=C stat -c '%F|%a|%U|%G|%u|%g|%s|%Y' -- "$f"; printf 'sha1:'; sha1sum < "$f"${sum}; ` +
    `else echo kind:none; if [ -d "$(dirname -- "$f")" ]; then echo parent:yes; fi; fi`
  );
}

export function parseFileRead(out: ProbeOutput): DestRead {
  const lines = new Map<string, string>();
  for (const l of out.stdout.split('\n')) {
    const i = l.indexOf(':');
    if (i > 0 && !lines.has(l.slice(0, i))) lines.set(l.slice(0, i), l.slice(i + 1));
  }
  const kind = lines.get('kind');
  if (kind === 'dir') return { kind: 'dir' };
  if (kind === 'none') return { kind: 'none', parentExists: lines.get('parent') === 'yes' };
  const f = lines.get('stat')?.split('|') ?? [];
  if (kind !== 'file' || f.length !== 8) throw new ProbeParseError('get_url: unexpected read of dest', out.stdout);
  const type = f[0] === 'regular file' || f[0] === 'regular empty file' ? 'file' : f[0] === 'symbolic link' ? 'link' : 'other';
  return {
    kind: 'file',
    stat: { exists: true, type, mode: f[1], owner: f[2], group: f[3], uid: Number(f[4]), gid: Number(f[5]) },
    size: Number(f[6]), mtime: Number(f[7]),
    sha1: (lines.get('sha1') ?? '').split(' ')[0]!,
    digest: lines.get('digest')?.split(' ')[0],
  };
}

export const destProbe = (path: string, algorithm?: Algorithm): Probe<DestRead> => ({ command: inlineProbe(`{ ${fileReadCommand(path, algorithm)}; }`), parse: parseFileRead });
