// Plan mode/owner/group fixes of an existing path: the commands plus a before/after for --diff.
import { chownSpec } from '../../transports/write-script.js';
import { quoteWord } from './shell-words.js';
import type { Change } from '../types.js';
import { resolveMode, sameMode, showMode } from './mode.js';
import type { FileStat } from './file-stat.js';

export interface Attrs {
  mode?: string;
  owner?: string;
  group?: string;
}

const sameId = (want: string, name?: string, id?: number) => want === name || want === String(id);

/** [] when the path already has the wanted attributes (a name or a numeric id both match). */
export function planAttrs(path: string, st: FileStat, want: Attrs): Change[] {
  const before: string[] = [];
  const after: string[] = [];
  const run: string[] = [];
  const p = quoteWord(path);
  const isLink = st.type === 'link';
  const mode = isLink ? undefined : resolveMode(want.mode, st);
  // A symlink's own mode means nothing on Linux (chmod would follow it): only owner/group apply.
  if (mode !== undefined && st.mode !== undefined && !sameMode(st.mode, mode)) {
    before.push(`mode: ${showMode(st.mode)}`);
    after.push(`mode: ${showMode(mode)}`);
    run.push(`chmod -- ${mode} ${p}`);
  }
  const owner = want.owner !== undefined && !sameId(want.owner, st.owner, st.uid) ? want.owner : undefined;
  const group = want.group !== undefined && !sameId(want.group, st.group, st.gid) ? want.group : undefined;
  if (owner !== undefined) {
    before.push(`owner: ${st.owner}`);
    after.push(`owner: ${owner}`);
  }
  if (group !== undefined) {
    before.push(`group: ${st.group}`);
    after.push(`group: ${group}`);
  }
  if (owner !== undefined || group !== undefined) {
    // `--` before the operands: a value can never be read as an option (--reference=...).
    run.push(`chown ${isLink ? '-h ' : ''}-- ${quoteWord(chownSpec(owner, group)!)} ${p}`);
  }
  if (run.length === 0) return [];
  return [{ summary: `set ${after.join(', ')} on ${path}`, before: before.join('\n') + '\n', after: after.join('\n') + '\n', run }];
}
