// ansible.posix.mount's fstab edits (_set_mount_save_old, unset_mount) as pure functions of the file's
// text: the same line matching, field comparison, rewriting and escaping, on Linux.
import type { MountEntry } from './args.js';

/** _escape_fstab: backslash, space and ampersand as octal escapes. */
export const escapeFstab = (v: string): string => v.replace(/\\/g, '\\134').replace(/ /g, '\\040').replace(/&/g, '\\046');

const lines = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
const skip = (line: string) => line.trim() === '' || line.trim().startsWith('#');
/** Python's str.split(): runs of whitespace. */
const split = (line: string) => line.trim().split(/\s+/);

function matches(ld: Record<string, string | undefined>, e: MountEntry, escapedName: string): boolean {
  if (ld.name !== escapedName) return false;
  // For swap the source tells entries apart.
  return !(e.src !== undefined && ld.name === 'none' && ld.fstype === 'swap' && ld.src !== e.src);
}

/** The file with the entry set (added or its fields updated); `changed` as the module counts it. */
export function setMount(text: string, e: MountEntry): { text: string; changed: boolean } {
  const esc = { src: escapeFstab(e.src ?? ''), name: escapeFstab(e.name), fstype: escapeFstab(e.fstype ?? ''), opts: escapeFstab(e.opts), dump: escapeFstab(e.dump), passno: escapeFstab(e.passno) };
  const out: string[] = [];
  let exists = false;
  let changed = false;
  for (let line of lines(text)) {
    if (!line.endsWith('\n')) line += '\n';
    const fields = split(line);
    if (skip(line) || fields.length < 4 || fields.length > 6) {
      out.push(line);
      continue;
    }
    // dump and passno are optional on Linux; the module fills them with the number 0, which never equals '0'.
    const ld: Record<string, string | undefined> = { src: fields[0], name: fields[1], fstype: fields[2], opts: fields[3], dump: fields[4], passno: fields[5] };
    if (!matches(ld, e, esc.name)) {
      out.push(line);
      continue;
    }
    exists = true;
    for (const k of ['src', 'fstype', 'opts', 'dump', 'passno'] as const) {
      if (ld[k] !== esc[k]) {
        ld[k] = esc[k];
        changed = true;
      }
    }
    out.push(changed ? `${ld.src} ${ld.name} ${ld.fstype} ${ld.opts} ${ld.dump ?? '0'} ${ld.passno ?? '0'}\n` : line);
  }
  if (!exists) {
    out.push(`${esc.src} ${esc.name} ${esc.fstype} ${esc.opts} ${esc.dump} ${esc.passno}\n`);
    changed = true;
  }
  return { text: out.join(''), changed };
}

/** The file without the entry's lines (only 6-field lines are considered, as unset_mount does). */
export function unsetMount(text: string, e: MountEntry): { text: string; changed: boolean } {
  const name = escapeFstab(e.name);
  let changed = false;
  const out = lines(text).filter((line) => {
    const f = split(line);
    if (skip(line) || f.length !== 6) return true;
    if (!matches({ src: f[0], name: f[1], fstype: f[2] }, e, name)) return true;
    changed = true;
    return false;
  });
  return { text: out.join(''), changed };
}
