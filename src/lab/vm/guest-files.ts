// Files the VM image carries beyond the shared rootfs: an initramfs with the virtio drivers, and a boot
// unit that takes the host's identity and address from its seed disk (the second virtio disk, /dev/vdb).
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { IPV6_ONLY_MARKER, OWN_IPV4_MARKER } from '../network.js';

/** Bump when anything written here changes: it is part of the VM image cache key. */
export const GUEST_FILES_VERSION = 5;

/** Debian's cloud kernel builds virtio as modules; ext4 is built in. */
export const INITRAMFS_MODULES = ['virtio_pci', 'virtio_blk', 'virtio_net'];

// Runs every boot: the identity files are copied once (later changes on the host survive a reboot); the
// address is set before NetworkManager starts, so NM reports eth0 "connected (externally)" as on nspawn hosts.
const SEED_SCRIPT = `#!/bin/sh
# hostwire lab VM: identity (host key, authorized_keys, /etc/hosts) and address from the seed disk.
set -e
for i in $(seq 600); do [ -b /dev/vdb ] && [ -e /sys/class/net/eth0 ] && break; sleep 0.05; done
mkdir -p /run/hostwire-seed
mount -o ro -t ext4 /dev/vdb /run/hostwire-seed
if [ ! -e /var/lib/hostwire/seeded ]; then
  cp -a /run/hostwire-seed/files/. /
  mkdir -p /var/lib/hostwire && touch /var/lib/hostwire/seeded
fi
. /run/hostwire-seed/net.env
umount /run/hostwire-seed
ip link set lo up
ip link set eth0 up
# An IPv6-only host (the lab's marker) keeps no IPv4: its own configuration gives eth0 its address.
[ -e ${IPV6_ONLY_MARKER} ] && exit 0
# Nor does a host whose own configuration takes the lab's IPv4 address (its DHCP client's reserved lease).
[ -e ${OWN_IPV4_MARKER} ] && exit 0
ip addr replace "$HW_ADDR" dev eth0
ip route replace default via "$HW_GW"
`;

const SEED_UNIT = `[Unit]
Description=hostwire lab host identity and address (seed disk)
DefaultDependencies=no
After=systemd-remount-fs.service
Before=sysinit.target network-pre.target ssh.service NetworkManager.service
Wants=network-pre.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/hostwire-seed

[Install]
WantedBy=sysinit.target
`;

/** Before the kernel package is installed, so its postinst builds the initramfs once, with our list. */
export async function writeInitramfsConfig(tree: string): Promise<void> {
  await mkdir(`${tree}/etc/initramfs-tools/conf.d`, { recursive: true });
  await writeFile(`${tree}/etc/initramfs-tools/conf.d/hostwire.conf`, 'MODULES=list\nCOMPRESS=gzip\n');
  await writeFile(`${tree}/etc/initramfs-tools/modules`, `${INITRAMFS_MODULES.join('\n')}\n`);
}

/** Emulated CPUs on a busy machine: a service start may take minutes (ovsdb-server hit the 90 s default). */
export async function writeSystemdTimeouts(tree: string): Promise<void> {
  await mkdir(`${tree}/etc/systemd/system.conf.d`, { recursive: true });
  await writeFile(`${tree}/etc/systemd/system.conf.d/hostwire-vm.conf`, '[Manager]\nDefaultTimeoutStartSec=600s\nDefaultDeviceTimeoutSec=600s\n');
  // nm-online gives up after 60 s, which left a VM "degraded" under load although its network came up later.
  const waitOnline = `${tree}/etc/systemd/system/NetworkManager-wait-online.service.d`;
  await mkdir(waitOnline, { recursive: true });
  await writeFile(`${waitOnline}/hostwire-vm.conf`, '[Service]\nEnvironment=NM_ONLINE_TIMEOUT=600\n');
}

export async function writeSeedUnit(tree: string): Promise<void> {
  await mkdir(`${tree}/usr/local/sbin`, { recursive: true });
  await writeFile(`${tree}/usr/local/sbin/hostwire-seed`, SEED_SCRIPT, { mode: 0o755 });
  await writeFile(`${tree}/etc/systemd/system/hostwire-seed.service`, SEED_UNIT);
  const wants = `${tree}/etc/systemd/system/sysinit.target.wants`;
  await mkdir(wants, { recursive: true });
  await rm(`${wants}/hostwire-seed.service`, { force: true });
  await symlink('/etc/systemd/system/hostwire-seed.service', `${wants}/hostwire-seed.service`);
}
