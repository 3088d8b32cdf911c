// copy with remote_src, a file: as ansible-core 2.14's copy module does it on the host. dest may be a
// directory (the copy lands in dest/<basename of src>) or end with '/' (that directory is created);
// the content is compared by sha256 on the host and copied host-side only when it differs, through a
// temp file in the target's directory renamed over it (src's timestamps kept, as copystat; the old
// file's mode and owner kept unless mode/owner/group say otherwise, a new file 0666 less the umask,
// as atomic_move). A symlink at dest is replaced by the file, as Ansible's module does.
import { dirname } from 'node:path';
import { HostwireError } from '../../errors.js';
import { chownSpec } from '../../transports/write-script.js';
import type { Change } from '../types.js';
import { planAttrs } from '../kit/attrs.js';
import { backupCommand, BACKUP_NAME } from '../kit/content-plan.js';
import type { FileStat } from '../kit/file-stat.js';
import { resolveMode } from '../kit/mode.js';
import { quoteWord } from '../kit/shell-words.js';
import { validateCommand } from '../kit/validate-command.js';
import { inDestPath, stripSlash, type PathInfo, type RemoteCopyState } from './remote-read.js';

export interface RemoteCopyArgs {
  src: string;
  dest: string;
  mode?: string;
  owner?: string;
  group?: string;
  backup: boolean;
  force: boolean;
  validate?: string;
  directory_mode?: string;
}

export const fail = (msg: string): HostwireError => new HostwireError('bad-input', msg);

/** A PathInfo as the attribute planners read a path (its own umask for symbolic modes). */
export const asStat = (p: PathInfo, umask?: number): FileStat =>
  p.exists ? { exists: true, type: p.type, mode: p.mode, owner: p.owner, group: p.group, uid: p.uid, gid: p.gid, umask } : { exists: false, umask };

/** Shell: copy src into a temp file beside `target`, give it its attributes, validate it, rename it over target. */
function copyCommand(src: string, target: string, o: { mode?: string; chown?: string; validate?: string }): string {
  const d = quoteWord(target);
  const regular = `[ -f ${d} ] && [ ! -L ${d} ]`;
  const steps = [
    `cp --preserve=timestamps -- ${quoteWord(src)} "$t"`,
    o.mode !== undefined ? `chmod -- ${o.mode} "$t"` : `if ${regular}; then chmod --reference=${d} -- "$t"; else chmod -- "$(printf %o $((0666 & ~$(umask))))" "$t"; fi`,
    o.chown !== undefined ? `chown -- ${quoteWord(o.chown)} "$t"` : `if ${regular} && [ "$(id -u)" = 0 ]; then chown --reference=${d} -- "$t"; fi`,
    ...(o.validate !== undefined ? [`${validateCommand(o.validate)} >&2`] : []),
    `mv -f -- "$t" ${d}`,
  ];
  const temp = quoteWord(`${dirname(target)}/.hostwire-copy.XXXXXXXXXX`);
  return `t=$(mktemp -- ${temp}) && { { ${steps.join(' && ')}; } || { rm -f -- "$t"; false; }; }`;
}

/** Where a file src lands, creating dest when it ends with '/'; the path's state before the run. */
function landing(st: RemoteCopyState, a: RemoteCopyArgs): { target: string; before: PathInfo; mkdir: Change[] } {
  if (a.dest.endsWith('/')) {
    const dir = stripSlash(a.dest);
    if (st.dest.exists && !st.dest.isDir) throw fail(`dest ${a.dest} ends with '/' but is not a directory`);
    if (st.dest.isDir) return { target: inDestPath(a.src, a.dest), before: st.inDest, mkdir: [] };
    const chmod = a.directory_mode !== undefined ? [`chmod -- ${resolveMode(a.directory_mode, { exists: false, umask: st.umask }, 'directory')} ${quoteWord(dir)}`] : [];
    const mkdir = { summary: `create directory ${dir}`, before: 'state: absent\n', after: 'state: directory\n', run: [`mkdir -p -- ${quoteWord(dir)}`, ...chmod] };
    return { target: inDestPath(a.src, a.dest), before: { exists: false, isDir: false, isFile: false }, mkdir: [mkdir] };
  }
  if (st.dest.isDir) return { target: inDestPath(a.src, a.dest), before: st.inDest, mkdir: [] };
  if (!st.dest.exists && !st.parentIsDir) throw fail(`Destination directory ${dirname(a.dest)} does not exist`);
  return { target: a.dest, before: st.dest, mkdir: [] };
}

export function planRemoteFile(st: RemoteCopyState, a: RemoteCopyArgs): Change[] {
  if (!st.src.isFile) throw fail(`Cannot copy invalid source '${a.src}': not a file`);
  if (st.src.sha256 === undefined) throw fail(`Source ${a.src} not readable`);
  const { target, before, mkdir } = landing(st, a);
  if (before.exists && !a.force) return [];
  if (before.isDir) throw fail(`${target} is a directory: the file ${a.src} cannot replace it`);
  const attrs = { mode: a.mode, owner: a.owner, group: a.group };
  // A link at dest is always replaced (Ansible: `or os.path.islink(dest)`).
  if (before.type === 'file' && before.sha256 === st.src.sha256) return planAttrs(target, asStat(before, st.umask), attrs);
  const mode = resolveMode(a.mode, before.type === 'file' ? asStat(before, st.umask) : { exists: false, umask: st.umask });
  const changes = [...mkdir];
  if (before.exists && a.backup) changes.push({ summary: `back up ${target}`, run: [backupCommand(target), BACKUP_NAME], reports: 'backup_file' });
  const copy = copyCommand(a.src, target, { mode, chown: chownSpec(a.owner, a.group), validate: a.validate });
  changes.push({ summary: `${before.exists ? 'update' : 'create'} ${target} from ${a.src} on the host`, run: [copy] });
  return changes;
}
