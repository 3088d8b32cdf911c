import type { ModuleDoc } from '../types.js';

export const sysctlDoc: ModuleDoc = {
  description:
    'A kernel parameter at runtime (/proc/sys) and persistently in a sysctl.d file. Runtime and file are read in one ' +
    'probe and compared apart; only the side that differs is set. The runtime value is written straight to /proc/sys ' +
    '(procps is not needed). The default file is hostwire\'s own /etc/sysctl.d/99-hostwire.conf, not /etc/sysctl.conf.',
  args: {
    name: 'The key, like net.ipv4.ip_forward.',
    value: 'The value (yes/no become 1/0; one line).',
    state: 'present: set it; absent: remove it from the file (the runtime value stays).',
    sysctl_file: 'The file that keeps the value across boots.',
    reload: 'no: only write the file, leave the runtime value alone (unless sysctl_set).',
    sysctl_set: 'yes: set the runtime value when it differs even with reload: no (Ansible\'s sysctl -w).',
    ignoreerrors: 'yes: a key the kernel does not have is no error: only the file is written (Ansible\'s sysctl -e).',
  },
  example: '- sysctl:\n    name: net.ipv4.ip_forward\n    value: 1',
  check: 'full',
  diff: 'full',
};
