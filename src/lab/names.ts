// Every name a lab uses on the machine is derived from the lab name, so several labs can run at once
// and a crashed lab can be found again from its name alone.
import { BadInputError } from '../errors.js';

export const LABS_DIR = '/var/lib/hostwire/labs';
export const ROOTFS_CACHE_DIR = '/var/cache/hostwire/rootfs';
export const VM_CACHE_DIR = '/var/cache/hostwire/vm';
/** NetworkManager rebuilt with its OVS device plugin, per Debian version (nm-ovs.ts). */
export const NM_OVS_CACHE_DIR = '/var/cache/hostwire/nm-ovs';
export const CGROUP_ROOTS = ['/sys/fs/cgroup/systemd', '/sys/fs/cgroup/unified'];
export const PROPAGATE_DIR = '/run/systemd/nspawn/propagate';
export const DEFAULT_LAB = 'lab';

// No hyphen in lab names: host names are `<lab>-<n>`, so a hyphen would let lab "a" and lab "a-1" collide.
const LAB_NAME = /^[a-z][a-z0-9]{0,11}$/;

export function checkLabName(name: string): string {
  if (!LAB_NAME.test(name)) {
    throw new BadInputError(`lab name "${name}": expected 1-12 lowercase letters or digits, starting with a letter (no hyphens)`);
  }
  return name;
}

export const labDir = (lab: string): string => `${LABS_DIR}/${lab}`;
export const labNetns = (lab: string): string => `hw-${lab}`;
export const hostName = (lab: string, index: number): string => `${lab}-${index}`;
export const hostNetns = (lab: string, index: number): string => `hw-${lab}-${index}`;
/** Lab-side veth end; only has to be unique inside the lab namespace. */
export const labVeth = (index: number): string => `veth${index}`;
/** A VM host's tap device, in the lab namespace on the lab bridge. */
export const labTap = (index: number): string => `tap${index}`;
export const LAB_BRIDGE = 'br0';
export const cgroupDirs = (lab: string, host: string): string[] => CGROUP_ROOTS.map((r) => `${r}/hw-${lab}/${host}`);
export const labCgroupDirs = (lab: string): string[] => CGROUP_ROOTS.map((r) => `${r}/hw-${lab}`);

/** True for the lab namespace and its hosts' namespaces, never for another lab's (`hw-lab` vs `hw-lab2`). */
export function isLabNetns(lab: string, ns: string): boolean {
  return ns === labNetns(lab) || new RegExp(`^hw-${lab}-\\d+$`).test(ns);
}

/** `lab-2` -> { lab: 'lab', index: 2 }; undefined for anything else. */
export function parseHostName(host: string): { lab: string; index: number } | undefined {
  const m = /^([a-z][a-z0-9]{0,11})-(\d+)$/.exec(host);
  return m ? { lab: m[1]!, index: Number(m[2]) } : undefined;
}
