// A VM scenario's lab name: HW_VM_LAB, when set, wins (a worker running one scenario at a time beside others
// names its lab with its own prefix; lab names are [a-z][a-z0-9]{0,11}); else the run's own name from the
// test's word or file (test/helpers/lab-name.ts: the base cut to fit, then the worker's pid in base 36).
import { testLabName } from '../helpers/lab-name.js';

export const vmLabName = (name: string): string => process.env.HW_VM_LAB || testLabName(name);
