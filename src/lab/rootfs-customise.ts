// One-time changes to a freshly built rootfs so every host boots fast, clean and unique.
import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { run } from './run.js';

/** Bump when the customisation changes: it is part of the rootfs cache key. */
export const CUSTOMISE_VERSION = 2;

// Started by roles, not at boot.
const DISABLED_UNITS = ['etcd.service', 'keepalived.service', 'ovn-central.service', 'ovn-host.service', 'dnsmasq.service',
  'e2scrub_reap.service', 'apt-daily.timer', 'apt-daily-upgrade.timer', 'dpkg-db-backup.timer', 'e2scrub_all.timer', 'fstrim.timer'];
// No console login on a lab host; `hostwire lab ssh` is the way in.
const MASKED_UNITS = ['console-getty.service', 'getty@tty1.service', 'container-getty@.service'];

export async function customiseRootfs(root: string): Promise<void> {
  // Empty machine-id: systemd makes a fresh one per host at boot.
  await writeFile(`${root}/etc/machine-id`, '');
  // mmdebstrap copies the machine's resolv.conf; a real resolver makes ovs-record-hostname wait 10 s.
  await rm(`${root}/etc/resolv.conf`, { force: true });
  await writeFile(`${root}/etc/resolv.conf`, '');
  await rm(`${root}/etc/hostname`, { force: true });
  // Host keys are generated per host by the controller and written into each host's overlay.
  for (const f of await readdir(`${root}/etc/ssh`)) if (f.startsWith('ssh_host_')) await rm(`${root}/etc/ssh/${f}`);
  await writeFile(`${root}/etc/ssh/sshd_config.d/hostwire.conf`,
    'HostKey /etc/ssh/ssh_host_ed25519_key\nPermitRootLogin prohibit-password\nPasswordAuthentication no\nUseDNS no\n');
  for (const unit of DISABLED_UNITS) {
    await run('chroot', [root, 'systemctl', 'disable', '--quiet', unit], { check: false });
  }
  for (const unit of MASKED_UNITS) {
    await rm(`${root}/etc/systemd/system/${unit}`, { force: true });
    await symlink('/dev/null', `${root}/etc/systemd/system/${unit}`);
  }
  await rm(`${root}/etc/systemd/system/getty.target.wants`, { recursive: true, force: true });
  // A sudo-capable user for playbooks that want `become`; it gets the lab key like root.
  await run('chroot', [root, 'useradd', '--create-home', '--shell', '/bin/bash', '--groups', 'sudo', 'hostwire']);
  await mkdir(`${root}/etc/sudoers.d`, { recursive: true });
  await writeFile(`${root}/etc/sudoers.d/hostwire`, 'hostwire ALL=(ALL) NOPASSWD:ALL\n', { mode: 0o440 });
}
