// unarchive's pure decision from the read: the failures main() and the action plugin name (in their
// order), the handler pick_handler picks, the files TgzArchive.files_in_archive lists, the refusal of
// members outside dest, and TgzArchive.is_unarchived's verdict on `tar --diff` (a difference counts
// unless it is in an attribute the task sets anyway; a missing file always counts).
import { HostwireError } from '../../errors.js';
import { fnmatch } from '../kit/fnmatch.js';
import type { UnarchiveArgs } from './args.js';
import { parseListing, refuseUnsafe } from './members.js';
import type { ReadOut } from './read.js';
import type { HandlerName } from './tar-command.js';

export interface Verdict {
  handler: HandlerName;
  files: string[];
  unarchived: boolean;
}

const fail = (msg: string): never => {
  throw new HostwireError('command-failed', msg);
};

function checkInputs(r: ReadOut, a: UnarchiveArgs, src: string): void {
  if (!r.destIsDir) fail(`dest '${a.dest}' must be an existing dir`);
  if (r.srcProblems.includes('missing')) fail(a.remote_src ? `Source '${src}' does not exist` : `Source '${src}' failed to transfer`);
  if (r.srcProblems.includes('unreadable')) fail(`Source '${src}' not readable`);
  if (r.srcProblems.includes('empty')) fail(`Invalid archive '${src}', the file is 0 bytes`);
}

function noHandler(r: ReadOut, src: string, why?: string): never {
  const reasons = ["Unable to find required 'unzip' or 'zipinfo' binary in the path.", ...(why ? [why] : r.lists.map((l) => `Command "tar" could not handle archive: Unable to list files in the archive: ${l.out}`))];
  return fail(`Failed to find handler for "${src}". Make sure the required command to extract the file is installed.\n${reasons.join('\n')}`);
}

/** is_unarchived: the --diff lines that mean the archive is not (all) there. */
export function differs(diffOut: string, uid: number, a: UnarchiveArgs): boolean {
  // A missing symlink shows as "Cannot readlink" and a changed one as "Symlink differs": ansible-core
  // 2.14 misses both (it then never unpacks an archive whose only difference is a link); they count here.
  const missing = /: Warning: Cannot (stat|readlink): No such file or directory$|: Symlink differs$/;
  return diffOut.split('\n').some((line) => {
    if (/: : Warning: Cannot stat: No such file or directory$/.test(line)) return false;
    if (uid === 0 && a.owner === undefined && /: Uid differs$/.test(line)) return true;
    if (uid === 0 && a.group === undefined && /: Gid differs$/.test(line)) return true;
    if (a.mode === undefined && /: Mode differs$/.test(line)) return true;
    return /: Mod time differs$/.test(line) || missing.test(line) || /: Invalid (owner|group)/.test(line);
  });
}

export function judge(r: ReadOut, a: UnarchiveArgs, src: string): Verdict {
  checkInputs(r, a, src);
  if (!(r.tarVersion.startsWith('tar') && r.tarVersion.includes('GNU'))) noHandler(r, src, `Command "tar" detected as tar type None. GNU tar required.`);
  const picked = r.lists.find((l) => l.rc === 0);
  if (!picked) return noHandler(r, src);
  const members = parseListing(picked.out);
  if (!members.length) noHandler(r, src, 'Command "tar" found no files in archive. Empty archive files are not supported.');
  refuseUnsafe(members, a.remote_src ? a.src : `'${a.src}' (from the controller)`);
  const excludes = a.exclude.map((e) => e.replace(/\/+$/, ''));
  const files = members.map((m) => m.name).filter((n) => !excludes.some((e) => fnmatch(n, e)));
  return { handler: picked.handler, files, unarchived: !differs(r.diff?.out ?? '', r.uid, a) };
}
