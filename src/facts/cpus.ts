// ansible_processor_vcpus: the processor entries of /proc/cpuinfo (Ansible's Linux hardware facts).
import { ProbeParseError } from '../errors.js';
import type { FactProbe } from './types.js';

export const vcpusFact: FactProbe<number> = {
  id: 'vcpus',
  command: "grep -c '^processor' /proc/cpuinfo",
  parse(o) {
    const n = Number(o.stdout.trim());
    if (!Number.isInteger(n) || n < 1) throw new ProbeParseError('no processor entries in /proc/cpuinfo', o.stdout);
    return n;
  },
};
