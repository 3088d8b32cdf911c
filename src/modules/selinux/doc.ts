import type { ModuleDoc } from '../types.js';

export const selinuxDoc: ModuleDoc = {
  description:
    'ansible.posix.selinux (1.5.4) natively, without libselinux on the host: the SELinux mode and policy in the config file ' +
    'and at runtime, judged as the module does (its messages, warnings, reboot_required and check-mode answers). On a host ' +
    'without SELinux the runtime is disabled: the config file is still set and a reboot is said to be needed; a missing ' +
    'config file fails ("Unable to find file"). The file is rewritten as the module rewrites it, in one atomic write that ' +
    "keeps its mode and owner; the runtime mode is set through selinuxfs. update_kernel_param is refused.",
  args: {
    policy: "The policy (e.g. targeted); required unless state is disabled, and must be installed under /etc/selinux/.",
    state: 'enforcing, permissive or disabled.',
    configfile: 'The config file (default /etc/selinux/config).',
    update_kernel_param: "Must be false (grubby's kernel arguments are not built).",
  },
  example: '- selinux:\n    state: disabled',
  check: 'full',
  diff: 'full',
};
