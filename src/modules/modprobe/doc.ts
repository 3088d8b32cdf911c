import type { ModuleDoc } from '../types.js';

export const modprobeDoc: ModuleDoc = {
  description:
    'Loads or unloads a kernel module with its parameters and makes it persistent (community.general.modprobe, the ' +
    "collection's 6.6.2 that ansible 7 ships beside ansible-core 2.14): loaded means listed in /proc/modules or built " +
    "into the kernel (modules.builtin); persistent present writes /etc/modules-load.d/NAME.conf and the params to " +
    '/etc/modprobe.d/NAME.conf, absent comments their lines out, exactly as the module edits them. Under --check the ' +
    'dry run (modprobe -n) fails as the module does on a module the host cannot load. Containers usually cannot load modules.',
  args: {
    name: 'The kernel module.',
    state: 'present (loaded) or absent (unloaded).',
    params: 'Module parameters (key=value words) given to modprobe and, when persistent, to modprobe.d.',
    persistent: 'disabled (leave the boot configuration alone), present or absent.',
  },
  example: '- modprobe:\n    name: br_netfilter\n    persistent: present',
  check: 'full',
  diff: 'full',
};
