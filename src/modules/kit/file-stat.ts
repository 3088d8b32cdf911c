// Pure parser of the file-state probe (see stat-probe.ts for the snippet that prints it).
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';
import { parseDigestLine, type FileDigest } from './large-file.js';

export type FileType = 'file' | 'directory' | 'link' | 'other';

export interface FileStat {
  exists: boolean;
  type?: FileType;
  /** As `stat -c %a` prints it: '644', '4755'. */
  mode?: string;
  owner?: string;
  group?: string;
  uid?: number;
  gid?: number;
  /** Symlink target. */
  target?: string;
  /** Content of a regular file when it was asked for (and readable). */
  content?: Buffer;
  /** Instead of the content: size and sha256 of a large file (a read with digestLarge). */
  digest?: FileDigest;
  /** The reading shell's umask, when it was asked for (symbolic modes). */
  umask?: number;
}

const TYPES: Record<string, FileType> = {
  'regular file': 'file',
  'regular empty file': 'file',
  directory: 'directory',
  'symbolic link': 'link',
};

export function parseStat(out: ProbeOutput): FileStat {
  const lines = out.stdout.split('\n');
  const statLine = lines.find((l) => l.startsWith('stat:'));
  if (!statLine) throw new ProbeParseError('file probe printed no stat line', out.stdout);
  const body = statLine.slice(5);
  const umaskLine = lines.find((l) => /^umask:[0-7]{1,4}$/.test(l));
  const umask = umaskLine === undefined ? {} : { umask: parseInt(umaskLine.slice(6), 8) };
  if (body === 'absent') return { exists: false, ...umask };
  const f = body.split('|');
  if (f.length !== 6) throw new ProbeParseError(`file probe: unexpected stat line ${JSON.stringify(statLine)}`, out.stdout);
  const st: FileStat = { exists: true, type: TYPES[f[0]] ?? 'other', mode: f[1], owner: f[2], group: f[3], uid: Number(f[4]), gid: Number(f[5]), ...umask };
  const link = lines.find((l) => l.startsWith('link:'));
  if (link !== undefined) st.target = link.slice(5);
  const content = lines.find((l) => l.startsWith('content:'));
  const rc = lines.find((l) => l.startsWith('content_rc:'));
  if (content !== undefined && rc === 'content_rc:0') st.content = Buffer.from(content.slice(8), 'base64');
  const digest = lines.find((l) => l.startsWith('digest:'));
  if (digest !== undefined && rc === 'content_rc:0') st.digest = parseDigestLine(digest);
  return st;
}
