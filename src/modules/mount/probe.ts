// mount's read: the fstab file (base64, with its mode and owner), /proc/self/mountinfo, and what
// os.path.ismount needs (the path's and its parent's device and inode). Parsed purely.
import { ProbeParseError } from '../../errors.js';
import { need, readSections, section } from '../../probe/sections.js';
import type { Probe, ProbeOutput } from '../../probe/types.js';
import { shellQuote } from '../../transports/quote.js';
import type { MountEntry } from './args.js';

export interface MountRecord {
  /** The module's source: the device, or for a mount under another its root path. */
  src: string;
  /** The source as mountinfo (and mount -v) gives it. */
  device: string;
  fs: string;
  opts: string;
}

export interface MountState {
  /** undefined: the file does not exist (the module creates it empty). */
  fstab?: { text: string; mode: string; owner: string; group: string };
  /** get_linux_mounts: mount point -> source (a bind mount's source is its root path), fs, options. */
  mounts: Map<string, MountRecord>;
  exists: boolean;
  /** os.path.ismount: a directory whose device differs from its parent's, or the same inode (/). */
  ismount: boolean;
}

export function mountCommand(e: MountEntry): string {
  const f = shellQuote(e.fstab);
  const p = shellQuote(e.name);
  return `(${[
    section('fstab', `if [ -f ${f} ]; then stat -c '%a %U %G' -- ${f} && base64 -w0 -- ${f} && echo; else echo absent; fi`),
    section('mountinfo', 'cat /proc/self/mountinfo'),
    section('path', `if [ -L ${p} ]; then echo link; elif [ -d ${p} ]; then stat -c '%d %i' -- ${p} && stat -L -c '%d %i' -- ${p}/..; elif [ -e ${p} ]; then echo other; else echo absent; fi`),
  ].join('\n')})`;
}

function parseMountinfo(out: string): Map<string, MountRecord> {
  const info = new Map<number, { parent: number; root: string; dst: string; opts: string; fs: string; src: string }>();
  for (const line of out.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    info.set(Number(f[0]), { parent: Number(f[1]), root: f[3], dst: f[4], opts: f[5], fs: f[f.length - 3], src: f[f.length - 2] });
  }
  const mounts = new Map<string, MountRecord>();
  for (const m of info.values()) {
    let src = m.src;
    const parent = info.get(m.parent);
    // The module's bind-mount rule: a mount under a parent mount names its root as the source.
    if (m.parent !== 1 && parent) {
      let root = m.root;
      if (parent.root.length > 1 && root.startsWith(`${parent.root}/`)) root = root.slice(parent.root.length);
      if (parent.dst !== '/') root = `${parent.dst}${root}`;
      src = root;
    }
    mounts.set(m.dst, { src, device: m.src, fs: m.fs, opts: m.opts });
  }
  return mounts;
}

export function parseMount(out: ProbeOutput): MountState {
  const s = readSections(out.stdout);
  const fstab = need(s, 'fstab', out.stdout);
  let file: MountState['fstab'];
  if (fstab.rc !== 0) throw new ProbeParseError(`mount: cannot read the fstab file: ${fstab.out.trim()}`, out.stdout);
  if (fstab.out.trim() !== 'absent') {
    const [meta, b64 = ''] = fstab.out.split('\n');
    const [mode, owner, group] = meta.split(' ');
    file = { text: Buffer.from(b64, 'base64').toString('utf8'), mode: mode.padStart(4, '0'), owner, group };
  }
  const path = need(s, 'path', out.stdout).out.split('\n');
  const [self, parent] = path;
  const isDir = /^\d+ \d+$/.test(self ?? '') && /^\d+ \d+$/.test(parent ?? '');
  const [dev, ino] = isDir ? self.split(' ') : [];
  const [pdev, pino] = isDir ? parent.split(' ') : [];
  return {
    fstab: file,
    mounts: parseMountinfo(need(s, 'mountinfo', out.stdout).out),
    exists: path[0] !== 'absent',
    ismount: isDir && (dev !== pdev || ino === pino),
  };
}

export const mountProbe = (e: MountEntry): Probe<MountState> => ({ command: mountCommand(e), parse: parseMount });
