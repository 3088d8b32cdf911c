// The VM hosts' shared base disk: a copy of the cached lab rootfs plus Debian's cloud kernel and an
// initramfs, packed into a sparse ext4 image with `mke2fs -d` (no loop device, no kernel module on the
// machine). Cached under VM_CACHE_DIR/<hash of rootfs + kernel packages + guest files>, next to the kernel
// and initrd used for direct kernel boot. Hosts get a qcow2 overlay on it, so the base is never written.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { VM_CACHE_DIR } from '../names.js';
import { run } from '../run.js';
import { unmountUnder, withLock } from '../fs-util.js';
import { GUEST_FILES_VERSION, writeInitramfsConfig, writeSeedUnit, writeSystemdTimeouts } from './guest-files.js';
import { SELINUX_FILES_VERSION, SELINUX_PACKAGES, setupSelinuxTree } from './selinux.js';
import { installNmOvs, type NmOvs } from '../nm-ovs.js';

export const VM_PACKAGES = ['linux-image-cloud-amd64', 'initramfs-tools', 'udev'];
/** Sparse: only the ~600 MB in use take space; the rest is room for what roles install. */
export const VM_DISK_SIZE = '4G';

export interface VmImage {
  dir: string;
  disk: string;
  kernel: string;
  initrd: string;
  kernelRelease: string;
  hash: string;
  built: boolean;
  seconds: number;
  /** The SELinux variant (policy installed, files labelled): boot it with SELINUX_CMDLINE. */
  selinux: boolean;
  /** The NetworkManager-with-OVS variant (`lab up --nm-ovs`): the cached daemon + plugin key it carries. */
  nmOvs?: string;
}

const isSelinux = (packages: string[]): boolean => packages.some((p) => SELINUX_PACKAGES.includes(p));

/** `nmOvs`: the cached NM-with-OVS build's key (its dir name), for the variant that carries it. */
export function vmImageKey(rootfsHash: string, packages: string[], nmOvs?: string): string {
  // The variants' own files count too; the default image's key is as it always was.
  const selinux = isSelinux(packages) ? { SELINUX_FILES_VERSION } : {};
  const nm = nmOvs ? { nmOvs } : {};
  const spec = JSON.stringify({ rootfsHash, packages: [...packages].sort(), GUEST_FILES_VERSION, size: VM_DISK_SIZE, ...selinux, ...nm });
  return createHash('sha256').update(spec).digest('hex').slice(0, 16);
}

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);

/** The packages of an image variant: the SELinux one adds policy and tools (so it has its own cache key). */
export function vmImagePackages(selinux = false): string[] {
  return selinux ? [...VM_PACKAGES, ...SELINUX_PACKAGES] : VM_PACKAGES;
}

export interface VmImageOptions {
  onProgress?: (l: string) => void;
  cacheDir?: string;
  selinux?: boolean;
  /** NetworkManager with the OVS plugin (and NM ordered after OVS) instead of Debian's, as on `--nm-ovs` nspawn hosts. */
  nmOvs?: NmOvs;
}

export async function ensureVmImage(rootfs: { path: string; hash: string }, options: VmImageOptions = {}): Promise<VmImage> {
  const started = Date.now();
  const progress = options.onProgress ?? (() => {});
  const cache = options.cacheDir ?? VM_CACHE_DIR;
  const selinux = options.selinux ?? false;
  const packages = vmImagePackages(selinux);
  const nmKey = options.nmOvs?.path.split('/').pop();
  const hash = vmImageKey(rootfs.hash, packages, nmKey);
  const dir = `${cache}/${hash}`;
  const done = async (built: boolean): Promise<VmImage> => {
    const meta = JSON.parse(await readFile(`${dir}/image.json`, 'utf8')) as { kernelRelease: string };
    return { dir, disk: `${dir}/disk.raw`, kernel: `${dir}/vmlinuz`, initrd: `${dir}/initrd.img`, kernelRelease: meta.kernelRelease,
      hash, built, seconds: (Date.now() - started) / 1000, selinux, ...(nmKey ? { nmOvs: nmKey } : {}) };
  };
  if (await exists(`${dir}/image.json`)) return done(false);
  await mkdir(cache, { recursive: true });
  return withLock(`${cache}/.${hash}.lock`, async () => {
    if (await exists(`${dir}/image.json`)) return done(false);
    for (const n of await readdir(cache)) if (n.startsWith(`.tmp-${hash}-`)) await rm(`${cache}/${n}`, { recursive: true, force: true });
    const tmp = `${cache}/.tmp-${hash}-${process.pid}`;
    try {
      progress(`building VM image ${hash} from rootfs ${rootfs.hash} (+ ${packages.join(', ')})`);
      await buildImage(rootfs.path, tmp, packages, progress, options.nmOvs);
      await rename(tmp, dir); // atomic: an interrupted build never looks like a cache hit
    } catch (e) {
      await unmountUnder(tmp);
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
    progress(`VM image ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${dir}`);
    return done(true);
  });
}

// proc/sys/dev are mounted in a private mount namespace, so they vanish with the shell even on a crash.
const INSTALL = `set -e
tree="$1"; shift
mount -t proc proc "$tree/proc"; mount -t sysfs sys "$tree/sys"; mount --rbind /dev "$tree/dev"
chroot "$tree" apt-get update -q
chroot "$tree" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
chroot "$tree" apt-get clean
rm -rf "$tree"/var/lib/apt/lists/*
`;

async function buildImage(rootfs: string, tmp: string, packages: string[], progress: (l: string) => void, nmOvs?: NmOvs): Promise<void> {
  const tree = `${tmp}/tree`;
  await mkdir(tmp, { recursive: true });
  progress('VM image: copying the rootfs');
  await run('cp', ['-a', '--reflink=auto', rootfs, tree]);
  await writeInitramfsConfig(tree);
  // The rootfs has an empty resolv.conf (lab hosts have no DNS); apt in the chroot needs the machine's.
  await copyFile('/etc/resolv.conf', `${tree}/etc/resolv.conf`);
  progress(`VM image: installing ${packages.join(', ')} (chroot)`);
  await run('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', INSTALL, 'sh', tree, ...packages], { timeoutMs: 15 * 60_000 });
  await writeFile(`${tree}/etc/resolv.conf`, '');
  await writeSeedUnit(tree);
  await writeSystemdTimeouts(tree);
  if (nmOvs) {
    progress(`VM image: NetworkManager ${nmOvs.version} with the OVS plugin (${nmOvs.path})`);
    await installNmOvs(nmOvs, tree, tree); // over Debian's daemon, in the tree's own dirs
  }
  if (isSelinux(packages)) {
    progress('VM image: SELinux config (permissive) and labelling every file (setfiles)');
    await setupSelinuxTree(tree); // last: labels the files written above too
  }
  const boot = await readdir(`${tree}/boot`);
  const vmlinuz = boot.find((f) => f.startsWith('vmlinuz-'));
  const initrd = boot.find((f) => f.startsWith('initrd.img-'));
  if (!vmlinuz || !initrd) throw new Error(`VM image: no kernel/initrd in ${tree}/boot after installing ${VM_PACKAGES[0]} (found: ${boot.join(', ')})`);
  await copyFile(`${tree}/boot/${vmlinuz}`, `${tmp}/vmlinuz`);
  await copyFile(`${tree}/boot/${initrd}`, `${tmp}/initrd.img`);
  progress('VM image: writing the ext4 disk (mke2fs -d)');
  await run('mke2fs', ['-q', '-t', 'ext4', '-L', 'hwroot', '-d', tree, '-F', `${tmp}/disk.raw`, VM_DISK_SIZE]);
  await rm(tree, { recursive: true, force: true });
  const kernelRelease = vmlinuz.slice('vmlinuz-'.length);
  await writeFile(`${tmp}/image.json`, `${JSON.stringify({ kernelRelease, rootfs, packages, nmOvs: nmOvs?.path, builtAt: new Date().toISOString() }, null, 2)}\n`);
}
