// The shared, read-only lower layer of every lab host: built once with mmdebstrap, cached under
// ROOTFS_CACHE_DIR/<hash of package list + mirrors + customisation>, rebuilt when that changes.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { execa } from 'execa';
import { CommandError } from '../errors.js';
import { machineMirrorLines } from './apt-sources.js';
import { ROOTFS_CACHE_DIR } from './names.js';
import { customiseRootfs, CUSTOMISE_VERSION } from './rootfs-customise.js';
import { withLock, unmountUnder } from './fs-util.js';

export const RELEASE = 'bookworm';
export const DEFAULT_PACKAGES = [
  'openssh-server', 'systemd', 'systemd-sysv', 'dbus', 'iproute2', 'iputils-ping', 'procps',
  'openvswitch-switch', 'network-manager', 'firewalld', 'nftables', 'iptables', 'keepalived',
  'etcd-server', 'etcd-client', 'ovn-central', 'ovn-host', 'ethtool', 'sudo', 'python3', 'dnsmasq-base',
];

export interface RootfsOptions {
  /** Packages added to DEFAULT_PACKAGES. */
  packages?: string[];
  /** One line per step of the build (mmdebstrap's `I:` lines and our own). */
  onProgress?: (line: string) => void;
  cacheDir?: string;
}

export interface Rootfs {
  path: string;
  hash: string;
  /** False when the cached tree was reused. */
  built: boolean;
  seconds: number;
}

export function rootfsKey(packages: string[], mirrors: string[]): string {
  const spec = JSON.stringify({ release: RELEASE, packages: [...new Set(packages)].sort(), mirrors, CUSTOMISE_VERSION });
  return createHash('sha256').update(spec).digest('hex').slice(0, 16);
}

/** The cached rootfs for this package list, building it first if needed. */
export async function ensureRootfs(options: RootfsOptions = {}): Promise<Rootfs> {
  const started = Date.now();
  const progress = options.onProgress ?? (() => {});
  const cache = options.cacheDir ?? ROOTFS_CACHE_DIR;
  const packages = [...new Set([...DEFAULT_PACKAGES, ...(options.packages ?? [])])].sort();
  const mirrors = await machineMirrorLines(RELEASE);
  const hash = rootfsKey(packages, mirrors);
  const final = `${cache}/${hash}`;
  const done = async (built: boolean): Promise<Rootfs> => ({ path: final, hash, built, seconds: (Date.now() - started) / 1000 });
  if (await exists(`${final}/etc/os-release`)) return done(false);
  await mkdir(cache, { recursive: true });
  // Another process may be building the same tree: wait for it, then reuse its result.
  return withLock(`${cache}/.${hash}.lock`, async () => {
    if (await exists(`${final}/etc/os-release`)) return done(false);
    await removeStaleBuilds(cache, hash);
    const tmp = `${cache}/.tmp-${hash}-${process.pid}`;
    progress(`building rootfs ${hash} (${RELEASE}, ${packages.length} packages) from ${mirrors.map((m) => m.split(' ')[1]).join(', ')}`);
    try {
      await mmdebstrap(tmp, packages, mirrors, progress);
      progress('customising rootfs');
      await customiseRootfs(tmp);
      await rename(tmp, final); // atomic: an interrupted build never looks like a cache hit
    } catch (e) {
      await unmountUnder(tmp);
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
    progress(`rootfs ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${final}`);
    return done(true);
  });
}

async function mmdebstrap(target: string, packages: string[], mirrors: string[], progress: (l: string) => void): Promise<void> {
  const args = [
    '--variant=minbase', '--mode=root', '--format=directory',
    // Recommends would pull libnss-mymachines & co., which rewrite nsswitch.conf.
    '--aptopt=APT::Install-Recommends "false"',
    `--include=${packages.join(',')}`,
    RELEASE, target, ...mirrors,
  ];
  const child = execa('mmdebstrap', args, { reject: false, stdin: 'ignore', buffer: { stdout: false, stderr: true }, lines: false });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = (tail + chunk.toString()).split('\n');
    tail = text.pop() ?? '';
    for (const l of text) if (l.startsWith('I: ')) progress(`mmdebstrap: ${l.slice(3)}`);
  });
  const r = await child;
  if (r.exitCode !== 0) {
    throw new CommandError({ command: `mmdebstrap ${args.join(' ')}`, exitCode: r.exitCode ?? 1, stdout: '', stderr: String(r.stderr).slice(-4000) });
  }
}

/** Builds of this hash left by a process that died (their pid is in the dir name). */
async function removeStaleBuilds(cache: string, hash: string): Promise<void> {
  for (const n of await readdir(cache)) {
    const m = new RegExp(`^\\.tmp-${hash}-(\\d+)$`).exec(n);
    if (!m) continue;
    await unmountUnder(`${cache}/${n}`);
    await rm(`${cache}/${n}`, { recursive: true, force: true });
  }
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}
