import type { ModuleDoc } from '../types.js';

export const serviceDoc: ModuleDoc = {
  description:
    'A systemd unit\'s run state, boot enablement and masking, read with one `systemctl show` (merged with the batch\'s ' +
    'other service reads). restarted and reloaded always report a change, as in Ansible. A daemon-reload the host owes ' +
    '(unit files written by systemd_unit, or NeedDaemonReload=yes) runs first, once.',
  args: {
    name: 'The unit (.service may be left out).',
    state: 'started, stopped, restarted or reloaded.',
    enabled: 'Start it at boot (yes) or not (no).',
    masked: 'Mask it (yes: it cannot be started) or unmask it (no).',
    daemon_reload: 'Run systemctl daemon-reload before anything else.',
  },
  example: '- service:\n    name: openvswitch-switch\n    state: started\n    enabled: true',
  check: 'full',
  diff: 'full',
};
