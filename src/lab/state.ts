// A lab's record on disk (LABS_DIR/<lab>/state.json): everything teardown needs, written atomically
// after every step so a crash leaves a state that the next `lab up`/`lab down` can clean.
import { readdir, readFile } from 'node:fs/promises';
import { labDir, LABS_DIR } from './names.js';
import type { LabSubnet } from './subnet.js';
import { writeFileAtomic } from './fs-util.js';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../private-files.js';
import type { VmNic } from './vm/nics.js';

export type LabCapabilities = Record<string, boolean>;

/** nspawn: a container on the machine's kernel; vm: a qemu (TCG) guest with its own kernel. */
export type HostKind = 'nspawn' | 'vm';

/** What it takes to boot a VM host again (reboot) with the same disk. */
export interface VmHostState {
  /** Cached base image dir, kernel and initrd (direct kernel boot). */
  image: string;
  kernel: string;
  initrd: string;
  kernelRelease: string;
  /** Per-host qcow2 overlay over the base image, and the seed disk with the host's identity. */
  disk: string;
  seed: string;
  mac: string;
  memoryMb: number;
  cpus: number;
  /** NICs after eth0 (absent: eth0 only). */
  nics?: VmNic[];
  /** Booted from the SELinux image with SELinux on, permissive (absent: off, the kernel's default). */
  selinux?: boolean;
  /** Extra kernel command-line words (`lab up --vm-kernel-arg`, e.g. ipv6.disable=1); kept for every power cycle. */
  kernelArgs?: string[];
}

export interface HostState {
  name: string;
  index: number;
  ip: string;
  /** Absent in state files written before VM hosts existed: nspawn. */
  kind?: HostKind;
  /** The namespace holding the host's NIC: its own for nspawn hosts, the lab's for VMs (their tap). */
  netns: string;
  /** nspawn machine name (same as `name`). */
  machine: string;
  dir: string;
  merged: string;
  cgroups: string[];
  nspawnPid?: number;
  /** The container's PID 1 as seen from the machine; for a VM host, the qemu process. */
  initPid?: number;
  /** Lab-side end of the host's link on the lab bridge: a veth, or a VM's tap. */
  veth: string;
  vm?: VmHostState;
  /** Probed inside a VM host (its own kernel); nspawn hosts share the lab's `capabilities`. */
  capabilities?: LabCapabilities;
}

export interface LabState {
  version: 1;
  name: string;
  createdAt: string;
  subnet: LabSubnet;
  netns: string;
  bridge: string;
  rootfs: string;
  dir: string;
  keyFile: string;
  knownHostsFile: string;
  capabilities: LabCapabilities;
  hosts: HostState[];
  /** The process the lab lives only as long as (tests); absent: the lab stays until `lab down`. */
  owner?: LabOwner;
  /** The detached process that removes the lab when `owner` ends (src/lab/owner.ts). */
  watchdogPid?: number;
  /** nspawn hosts run NetworkManager (this Debian version) rebuilt with its OVS plugin (`lab up --nm-ovs`). */
  nmOvs?: string;
}

/** A pid and its start time (clock ticks after boot, /proc/<pid>/stat field 22): a reused pid is not the owner. */
export interface LabOwner { pid: number; startTicks: number }

export const statePath = (lab: string): string => `${labDir(lab)}/state.json`;

export async function writeState(state: LabState): Promise<void> {
  await mkdirPrivate(state.dir);
  await writeFileAtomic(statePath(state.name), `${JSON.stringify(state, null, 2)}\n`, PRIVATE_FILE_MODE);
}

export async function readState(lab: string): Promise<LabState | undefined> {
  try {
    return JSON.parse(await readFile(statePath(lab), 'utf8')) as LabState;
  } catch {
    return undefined;
  }
}

/** Lab names with a directory under LABS_DIR (with or without a readable state file). */
export async function listLabNames(): Promise<string[]> {
  const names = await readdir(LABS_DIR).catch(() => [] as string[]);
  return names.filter((n) => /^[a-z][a-z0-9]*$/.test(n)).sort();
}
