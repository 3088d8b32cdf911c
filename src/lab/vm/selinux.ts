// The SELinux variant of the VM image (`lab up --vm-selinux`): Debian's policy and tools on top of the base
// packages, /etc/selinux/config permissive, and every file labelled at build time (setfiles in the chroot:
// the machine's kernel has no SELinux, but ext4 keeps security.selinux xattrs and mke2fs -d copies them),
// so the guest needs no relabel at first boot. The kernel turns SELinux on only when asked on its command
// line (Debian's default LSM is AppArmor); enforcing=0 keeps the runtime permissive whatever the config says.
import { mkdir, writeFile } from 'node:fs/promises';
import { run } from '../run.js';

/** Bump when anything written here changes: it is part of the SELinux image's cache key. */
export const SELINUX_FILES_VERSION = 3;

export const SELINUX_PACKAGES = ['selinux-basics', 'selinux-policy-default', 'policycoreutils', 'python3-selinux', 'python3-semanage'];
export const SELINUX_POLICY = 'default';
// No selinux=1: this kernel has no SECURITY_SELINUX_BOOTPARAM (it would be an unknown parameter passed to init).
export const SELINUX_CMDLINE = ['security=selinux', 'enforcing=0'];

// libselinux sets labels through /proc/self/fd (ENOENT for every file without proc); -e keeps out of it.
const LABEL = `set -e
tree="$1"
mount -t proc proc "$tree/proc"
chroot "$tree" setfiles -F -e /proc -- /etc/selinux/${SELINUX_POLICY}/contexts/files/file_contexts /
umount "$tree/proc"
`;

// The seed unit's `cp -a` of the identity files (first boot) carries the seed disk's unlabeled_t onto them
// and onto /, /etc and /home themselves: in enforcing mode sshd then may not read its host key nor
// search / (recorded: every new SSH session reset). Those few paths get their labels back right after.
const SEED_DROPIN = `[Service]
ExecStartPost=-/sbin/restorecon -F / /etc /home
ExecStartPost=-/sbin/restorecon -RF /etc/ssh /etc/hostname /etc/hosts /root /home/hostwire
`;

/** Config, seed drop-in and every file's label. */
export async function setupSelinuxTree(tree: string): Promise<void> {
  await writeFile(`${tree}/etc/selinux/config`, `SELINUX=permissive\nSELINUXTYPE=${SELINUX_POLICY}\n`);
  await mkdir(`${tree}/etc/systemd/system/hostwire-seed.service.d`, { recursive: true });
  await writeFile(`${tree}/etc/systemd/system/hostwire-seed.service.d/selinux.conf`, SEED_DROPIN);
  await run('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', LABEL, 'sh', tree], { timeoutMs: 15 * 60_000 });
}
