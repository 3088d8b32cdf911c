import type { ModuleDoc } from '../types.js';

export const rebootDoc: ModuleDoc = {
  description:
    'Reboots the host and waits until it is back (ansible.builtin.reboot, ansible-core 2.14), over the same connection: it reads ' +
    'the boot id, runs shutdown -r (found in search_paths; reboot on Alpine) with msg, waits post_reboot_delay, then reconnects ' +
    'until the boot id has changed and test_command succeeds, each within reboot_timeout, backing off 1, 2, 4 ... 12 s between ' +
    'tries. Returns rebooted and elapsed (seconds). The play goes on on the same host afterwards; the host\'s read cache is ' +
    'dropped. Refused over a local connection. Under --check it reports changed without rebooting, as Ansible does. msg is ' +
    'quoted for the shell (Ansible puts it in double quotes as written).',
  args: {
    reboot_timeout: 'Seconds to wait for the host to come back, and again for test_command (default 600).',
    connect_timeout: 'Seconds one reconnect-and-read attempt may take (default 10).',
    pre_reboot_delay: 'Seconds before the reboot, given to shutdown in whole minutes (below 60: now).',
    post_reboot_delay: 'Seconds to wait after the reboot command before checking.',
    test_command: 'A command that must succeed once the host is back (default whoami).',
    boot_time_command: 'A command whose output changes with each boot (default cat /proc/sys/kernel/random/boot_id).',
    msg: 'The message shutdown broadcasts (default "Reboot initiated by Ansible").',
    reboot_command: 'The reboot command itself, instead of shutdown -r (its first word looked up in search_paths unless absolute).',
    search_paths: 'Folders where the shutdown command is looked for (default /sbin, /bin, /usr/sbin, /usr/bin, /usr/local/sbin).',
  },
  example: '- reboot:\n    reboot_timeout: 300\n    msg: kernel update',
  check: 'full',
  diff: 'none',
};
