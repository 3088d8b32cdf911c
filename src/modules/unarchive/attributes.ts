// After unpacking, main()'s set_fs_attributes_if_different for every listed file and each top folder
// (mode/owner/group, when given), and dest's own path info for the result (AnsibleModule adds it for a
// `dest` key). One exec reads them all: a stat line per path, in order - names are never printed back.
import { ProbeParseError } from '../../errors.js';
import type { Change } from '../types.js';
import { planAttrs } from '../kit/attrs.js';
import type { FileStat } from '../kit/file-stat.js';
import { showMode } from '../kit/mode.js';
import { quoteWord } from '../kit/shell-words.js';
import type { UnarchiveArgs } from './args.js';

const FORMAT = "'%a|%U|%G|%u|%g|%s|%F'";

/** The paths (relative to dest) whose attributes main() sets: the files, then the top folders. */
export function attributePaths(files: string[]): string[] {
  const top = [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]!))];
  return [...files, ...top].map((f) => (f === '' ? '.' : f));
}

export function statScript(a: UnarchiveArgs, paths: string[]): string {
  const each = paths.length ? `for f in ${paths.map(quoteWord).join(' ')}; do stat -c ${FORMAT} -- "$f" 2>/dev/null || echo '?'; done` : 'true';
  return [`cd -- ${quoteWord(a.dest)} || exit 1`, 'umask', `stat -c ${FORMAT} -- .`, each].join('\n');
}

const TYPES: Record<string, FileStat['type']> = { 'regular file': 'file', 'regular empty file': 'file', directory: 'directory', 'symbolic link': 'link' };

function statOf(line: string, umask: number, raw: string): FileStat & { size: number } {
  if (line === '?') return { exists: false, size: 0 };
  const f = line.split('|');
  if (f.length !== 7) throw new ProbeParseError(`unexpected stat line ${JSON.stringify(line)}`, raw);
  return { exists: true, mode: f[0], owner: f[1], group: f[2], uid: Number(f[3]), gid: Number(f[4]), size: Number(f[5]), type: TYPES[f[6]!] ?? 'other', umask };
}

export interface AfterStat {
  dest: FileStat & { size: number };
  paths: FileStat[];
}

export function parseStats(stdout: string): AfterStat {
  const [umask = '', dest = '', ...rest] = stdout.replace(/\n$/, '').split('\n');
  const u = parseInt(umask, 8);
  return { dest: statOf(dest, u, stdout), paths: rest.map((l) => statOf(l, u, stdout)) };
}

/** The chmod/chown changes for paths whose attributes differ from the task's. */
export function planAfter(a: UnarchiveArgs, paths: string[], st: AfterStat): Change[] {
  if (a.mode === undefined && a.owner === undefined && a.group === undefined) return [];
  return paths.flatMap((p, i) => (st.paths[i]?.exists ? planAttrs(`${a.dest}/${p}`, st.paths[i]!, { mode: a.mode, owner: a.owner, group: a.group }) : []));
}

/** dest's path info as AnsibleModule.add_path_info reports a folder. */
export function destInfo(st: AfterStat['dest']): Record<string, unknown> {
  if (!st.exists) return {};
  return { uid: st.uid, gid: st.gid, owner: st.owner, group: st.group, mode: showMode(st.mode ?? ''), state: st.type === 'directory' ? 'directory' : 'file', size: st.size };
}
