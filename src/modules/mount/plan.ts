// mount's pure plan, state by state as ansible.posix.mount's main() decides, on Linux: the fstab edit
// (one atomic write, its old text as the diff's before), mkdir, mount, remount (falling back to
// umount + mount), umount and rmdir.
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change } from '../types.js';
import type { MountArgs, MountEntry } from './args.js';
import { setMount, unsetMount } from './fstab.js';
import type { MountState } from './probe.js';

type State = MountArgs['state'];

const fstabArgs = (e: MountEntry) => (e.altFstab ? ['-T', e.fstab] : []);
const ephemeralArgs = (e: MountEntry) => ['-t', e.fstype!, ...(e.opts !== 'defaults' ? ['-o', e.opts] : []), '--', e.src!];

export function mountCommandLine(e: MountEntry, state: State): string {
  return shellJoin(state === 'ephemeral' ? ['mount', ...ephemeralArgs(e), e.name] : ['mount', ...fstabArgs(e), '--', e.name]);
}

/** remount(): mount -o remount, else (unless options were asked with remounted) umount and mount again. */
export function remountCommandLine(e: MountEntry, state: State): string {
  const withOpts = state === 'remounted' && e.opts !== 'defaults';
  const opt = withOpts ? `remount,${e.opts}` : 'remount';
  const remount = shellJoin(state === 'ephemeral' ? ['mount', '-o', opt, ...ephemeralArgs(e), e.name] : ['mount', '-o', opt, ...fstabArgs(e), '--', e.name]);
  if (withOpts) return remount;
  return `${remount} || { ${shellJoin(['umount', '--', e.name])} && ${mountCommandLine(e, state)}; }`;
}

function fstabWrite(st: MountState, e: MountEntry, text: string, summary: string): Change {
  const f = st.fstab ?? { text: '', mode: '0644', owner: 'root', group: 'root' };
  return { summary, before: f.text, after: text, run: [], write: { path: e.fstab, content: text, mode: f.mode, owner: f.owner, group: f.group } };
}

const mounted = (st: MountState, e: MountEntry, src?: string) => st.ismount || (src === undefined ? st.mounts.has(e.name) : st.mounts.get(e.name)?.src === src);

function planAbsent(st: MountState, e: MountEntry, state: State): Change[] {
  const unset = unsetMount(st.fstab?.text ?? '', e);
  if (!unset.changed) return [];
  const changes = [fstabWrite(st, e, unset.text, `remove ${e.name} from ${e.fstab}`)];
  if (state === 'absent_from_fstab') return changes;
  if (mounted(st, e)) changes.push({ summary: `unmount ${e.name}`, run: [shellJoin(['umount', '--', e.name])] });
  if (st.exists) changes.push({ summary: `remove the directory ${e.name}`, run: [shellJoin(['rmdir', '--', e.name])] });
  return changes;
}

function planMounted(st: MountState, e: MountEntry, state: State): Change[] {
  const changes: Change[] = [];
  if (!st.exists) changes.push({ summary: `create the directory ${e.name}`, run: [shellJoin(['mkdir', '-p', '--', e.name])] });
  const set = state === 'ephemeral' ? { changed: false, text: '' } : setMount(st.fstab?.text ?? '', e);
  if (set.changed) changes.push(fstabWrite(st, e, set.text, `set ${e.name} in ${e.fstab}`));
  if (!mounted(st, e, e.src)) return [...changes, { summary: `mount ${e.name}`, run: [mountCommandLine(e, state)] }];
  if (state === 'ephemeral') {
    const m = st.mounts.get(e.name);
    if (m?.src !== e.src && m?.device !== e.src) {
      throw new HostwireError('bad-input', 'Ephemeral mount point is already mounted with a different source than the specified one. Failing in order to prevent an unwanted unmount or override operation. Try replacing this command with a "state: unmounted" followed by a "state: ephemeral", or use a different destination path.');
    }
    return [...changes, { summary: `remount ${e.name}`, run: [remountCommandLine(e, state)] }];
  }
  return set.changed ? [...changes, { summary: `remount ${e.name}`, run: [remountCommandLine(e, state)] }] : changes;
}

export function planMount(st: MountState, e: MountEntry, state: State): Change[] {
  switch (state) {
    case 'absent':
    case 'absent_from_fstab':
      return planAbsent(st, e, state);
    case 'unmounted':
      return mounted(st, e) ? [{ summary: `unmount ${e.name}`, run: [shellJoin(['umount', '--', e.name])] }] : [];
    case 'present': {
      const set = setMount(st.fstab?.text ?? '', e);
      return set.changed ? [fstabWrite(st, e, set.text, `set ${e.name} in ${e.fstab}`)] : [];
    }
    case 'remounted':
      return [{ summary: `remount ${e.name}`, run: [remountCommandLine(e, state)] }];
    default:
      return planMounted(st, e, state);
  }
}
