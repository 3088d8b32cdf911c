// Kernel release (ansible_kernel).
import { oneLine, type FactProbe } from './types.js';

export const kernelFact: FactProbe<string> = { id: 'kernel', command: 'uname -r', parse: (o) => oneLine('uname -r', o) };
