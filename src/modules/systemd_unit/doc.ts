import type { ModuleDoc } from '../types.js';

export const systemdUnitDoc: ModuleDoc = {
  description:
    'A systemd unit file, or one drop-in (<path>/<unit>.d/<dropin>.conf), with the given content. A change leaves the ' +
    'host one daemon-reload to do: it runs once, before the next service task of the host or at the end of the batch ' +
    '(daemon_reload: yes runs it right away). Not in Ansible: its systemd module does not write units.',
  args: {
    name: 'The unit, with its type: ovs-vswitchd.service, data.mount.',
    dropin: 'Manage the drop-in <name>.d/<dropin>.conf instead of the unit file.',
    content: 'The file\'s content (no control characters but tab and newline).',
    state: 'present or absent.',
    path: 'The folder of unit files.',
    mode: 'Permissions of the file.',
    daemon_reload: 'Reload systemd right after a change instead of once later.',
  },
  example: '- systemd_unit:\n    name: ovs-vswitchd.service\n    dropin: 10-limits\n    content: |\n      [Service]\n      LimitNOFILE=65536',
  check: 'full',
  diff: 'full',
};
