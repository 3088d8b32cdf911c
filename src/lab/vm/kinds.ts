// Which lab hosts are VMs: `kinds` per host, or `vms` = the last N hosts.
import { BadInputError } from '../../errors.js';
import type { HostKind } from '../state.js';

export const HOST_KINDS: readonly HostKind[] = ['nspawn', 'vm'];

export function hostKinds(count: number, options: { vms?: number; kinds?: readonly string[] }): HostKind[] {
  if (options.kinds) {
    if (options.kinds.length !== count) throw new BadInputError(`kinds: expected ${count} entries (one per host), got ${options.kinds.length}`);
    return options.kinds.map((k, i) => {
      if (!HOST_KINDS.includes(k as HostKind)) throw new BadInputError(`kinds[${i}]: expected one of ${HOST_KINDS.join(', ')}, got "${k}"`);
      return k as HostKind;
    });
  }
  const vms = options.vms ?? 0;
  if (!Number.isInteger(vms) || vms < 0 || vms > count) throw new BadInputError(`--vms ${vms}: expected a whole number from 0 to ${count} (the number of hosts)`);
  return Array.from({ length: count }, (_, i) => (i >= count - vms ? 'vm' : 'nspawn'));
}

/** A kernel command-line word: `key` or `key=value`, no spaces or quotes (one word of qemu's -append). */
const KERNEL_ARG = /^[a-z][a-z0-9_.-]*(=[A-Za-z0-9_.,:/+-]+)?$/;
/** The words the lab sets itself: a second one would override the lab's (root disk, console, hostname...). */
const LAB_KERNEL_KEYS = ['root', 'rw', 'console', 'net.ifnames', 'systemd.hostname', 'panic', 'security', 'enforcing'];

/** Memory, vCPUs and extra kernel arguments per VM host, checked before anything is built. */
export function checkVmOptions(o: { memoryMb?: number; cpus?: number; kernelArgs?: string[] } = {}): void {
  const bad = (v: number | undefined, lo: number, hi: number): boolean => v !== undefined && (!Number.isInteger(v) || v < lo || v > hi);
  if (bad(o.memoryMb, 512, 16384)) throw new BadInputError(`--vm-memory ${o.memoryMb}: expected a whole number of MB from 512 to 16384`);
  if (bad(o.cpus, 1, 8)) throw new BadInputError(`vm.cpus ${o.cpus}: expected a whole number from 1 to 8`);
  for (const a of o.kernelArgs ?? []) {
    if (!KERNEL_ARG.test(a)) throw new BadInputError(`--vm-kernel-arg ${JSON.stringify(a)}: expected one kernel command-line word, key or key=value (letters, digits, _ . , : / + -)`);
    if (LAB_KERNEL_KEYS.includes(a.split('=')[0]!)) throw new BadInputError(`--vm-kernel-arg ${a}: the lab sets ${a.split('=')[0]} itself (${LAB_KERNEL_KEYS.join(', ')})`);
  }
}
