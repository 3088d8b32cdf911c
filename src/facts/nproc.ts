// Usable CPU count (ansible_processor_nproc).
import { ProbeParseError } from '../errors.js';
import { oneLine, type FactProbe } from './types.js';

export const nprocFact: FactProbe<number> = {
  id: 'nproc',
  command: 'nproc',
  parse(o) {
    const n = Number(oneLine('nproc', o));
    if (!Number.isInteger(n) || n < 1) throw new ProbeParseError('nproc did not print a positive integer', o.stdout);
    return n;
  },
};
