// Total memory in MiB; Ansible's ansible_memtotal_mb is MemTotal kB / 1024, rounded down.
import { ProbeParseError } from '../errors.js';
import type { FactProbe } from './types.js';

export const memoryFact: FactProbe<number> = {
  id: 'memtotal',
  command: 'grep MemTotal /proc/meminfo',
  parse(o) {
    const m = /^MemTotal:\s+(\d+)\s+kB$/m.exec(o.stdout);
    if (!m) throw new ProbeParseError('no MemTotal line in /proc/meminfo', o.stdout);
    return Math.floor(Number(m[1]) / 1024);
  },
};
