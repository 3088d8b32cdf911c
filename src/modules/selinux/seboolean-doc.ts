import type { ModuleDoc } from '../types.js';

export const sebooleanDoc: ModuleDoc = {
  description:
    'ansible.posix.seboolean (1.5.4) natively: an SELinux boolean on or off, read from selinuxfs without libselinux on the ' +
    'host. As the module: "SELinux is disabled on this host." when SELinux is off (unless ignore_selinux_state), an unknown ' +
    'boolean fails by name. A runtime change writes the boolean and commits it through selinuxfs; persistent runs ' +
    'setsebool -P (policycoreutils), judged as the module by the value in the policy store (the boolean\'s default in ' +
    '/var/lib/selinux/<SELINUXTYPE>/active/policy.kern), so a runtime-only change neither hides nor fakes a persistent one.',
  args: {
    name: 'The boolean.',
    state: 'on (true) or off (false).',
    persistent: 'Also set the value in the persistent policy (setsebool -P).',
    ignore_selinux_state: 'Do not fail when SELinux is disabled (the boolean list is then unreadable, as in the module).',
  },
  example: '- seboolean:\n    name: httpd_can_network_connect\n    state: true\n    persistent: true',
  check: 'full',
  diff: 'full',
};
