// One VM host's own pieces before boot: a tap on the lab bridge, a qcow2 overlay over the cached base
// disk (throw-away, survives a reboot), and a small ext4 seed disk with its identity and address.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { writeHostIdentity } from '../host-files.js';
import { run } from '../run.js';
import type { HostState, LabState, VmHostState } from '../state.js';
import type { VmImage } from './image.js';
import { hostName } from '../names.js';
import { planExtraNics, type Wire } from './nics.js';

export interface VmOptions {
  memoryMb?: number;
  cpus?: number;
  /** NICs per VM host (default 1): eth0 on the lab bridge, eth1... too unless `wires` takes them. */
  nics?: number;
  /** Boot the SELinux image variant with SELinux on, permissive (`lab up --vm-selinux`). */
  selinux?: boolean;
  /** Extra kernel command-line words, each `key` or `key=value` (`lab up --vm-kernel-arg`: a kernel without IPv6). */
  kernelArgs?: string[];
}

export const VM_DEFAULTS = { memoryMb: 1024, cpus: 2 };

/** 52:54:00 (qemu's prefix) + the last three octets of the host IP: unique on the bridge and across labs. */
export function vmMac(ip: string): string {
  const [, b, c, d] = ip.split('.').map(Number);
  return ['52', '54', '00', ...[b!, c!, d!].map((n) => n.toString(16).padStart(2, '0'))].join(':');
}

export async function createTap(state: LabState, tap: string): Promise<void> {
  const ip = (args: string[]) => run('ip', ['-n', state.netns, ...args]);
  // Persistent and created inside the lab namespace: it never exists in the machine's namespace.
  await ip(['tuntap', 'add', 'dev', tap, 'mode', 'tap']);
  await ip(['link', 'set', tap, 'master', state.bridge]);
  await ip(['link', 'set', tap, 'up']);
}

/** Everything the host needs before qemu starts; returns its known_hosts line. */
export async function prepareVmHost(state: LabState, host: HostState, image: VmImage, rootfs: string, options: VmOptions = {}, wires: readonly Wire[] = []): Promise<string> {
  await mkdir(host.dir, { recursive: true });
  const vm: VmHostState = {
    image: image.dir, kernel: image.kernel, initrd: image.initrd, kernelRelease: image.kernelRelease,
    disk: `${host.dir}/disk.qcow2`, seed: `${host.dir}/seed.img`, mac: vmMac(host.ip),
    memoryMb: options.memoryMb ?? VM_DEFAULTS.memoryMb, cpus: options.cpus ?? VM_DEFAULTS.cpus,
  };
  const extra = planExtraNics(host.index, options.nics ?? 1, vmMac(host.ip), wires, (i) => hostName(state.name, i));
  if (extra.length) vm.nics = extra;
  if (image.selinux) vm.selinux = true;
  if (options.kernelArgs?.length) vm.kernelArgs = [...options.kernelArgs];
  host.vm = vm;
  await run('qemu-img', ['create', '-q', '-f', 'qcow2', '-F', 'raw', '-b', image.disk, vm.disk]);
  const seedDir = `${host.dir}/seed`;
  await mkdir(`${seedDir}/files`, { recursive: true });
  const known = await writeHostIdentity(state, host, `${seedDir}/files`, rootfs);
  await writeFile(`${seedDir}/net.env`, `HW_ADDR=${host.ip}/24\nHW_GW=${state.subnet.gateway}\n`);
  // mke2fs keeps modes and owners, so /root/.ssh stays 0700 root and the host key 0600.
  await run('mke2fs', ['-q', '-t', 'ext4', '-L', 'hwseed', '-d', seedDir, '-F', vm.seed, '8M']);
  await rm(seedDir, { recursive: true, force: true });
  await createTap(state, host.veth);
  for (const nic of extra) if (nic.tap) await createTap(state, nic.tap);
  return known;
}
