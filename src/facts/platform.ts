// Ansible's platform facts (module_utils/facts/system/platform.py) beside ansible_kernel: the system,
// kernel version, machine, architecture, userspace bits and the machine id. `uname` gives what Python's
// platform module reads from uname(2); `getconf LONG_BIT` the userspace's word size (Ansible reads its
// own interpreter's ELF class: the same on a host's native Python); the machine id as Ansible looks for it.
import { ProbeParseError } from '../errors.js';
import type { FactProbe } from './types.js';

export interface PlatformFacts {
  system: string;
  kernelVersion: string;
  machine: string;
  /** '64' / '32'; '' when getconf is missing. */
  userspaceBits: string;
  /** '' when neither machine-id file has content. */
  machineId: string;
}

const MACHINE_ID = 'for f in /var/lib/dbus/machine-id /etc/machine-id; do if [ -s "$f" ]; then head -n 1 -- "$f"; break; fi; done';

export const platformFact: FactProbe<PlatformFacts> = {
  id: 'platform',
  command: `uname -s; uname -v; uname -m; getconf LONG_BIT 2>/dev/null || echo; ${MACHINE_ID}; echo .`,
  parse(o) {
    const lines = o.stdout.split('\n');
    // Five lines and the end marker; a machine id line may be missing (no file).
    const end = lines.lastIndexOf('.');
    const fields = lines.slice(0, end);
    if (o.rc !== 0 || end < 0 || fields.length < 4 || fields.length > 5 || !fields[0] || !fields[2]) {
      throw new ProbeParseError(`unexpected uname/getconf/machine-id output (rc=${o.rc})`, o.stdout);
    }
    const [system, kernelVersion, machine, bits, machineId = ''] = fields as [string, string, string, string, string?];
    return { system, kernelVersion, machine, userspaceBits: /^(32|64)$/.test(bits) ? bits : '', machineId: /^[0-9a-f]{32}$/.test(machineId) ? machineId : '' };
  },
};

/** Ansible's keys for these facts (x86_64's userspace architecture as platform.py names it); none when not read. */
export function ansiblePlatform(p: PlatformFacts | undefined): Record<string, string> {
  if (!p) return {};
  const out: Record<string, string> = {
    ansible_system: p.system,
    ansible_kernel_version: p.kernelVersion,
    ansible_machine: p.machine,
    ansible_architecture: p.machine,
  };
  if (p.userspaceBits) out.ansible_userspace_bits = p.userspaceBits;
  if (p.machine === 'x86_64' && p.userspaceBits) out.ansible_userspace_architecture = p.userspaceBits === '64' ? 'x86_64' : 'i386';
  if (p.machineId) out.ansible_machine_id = p.machineId;
  return out;
}
