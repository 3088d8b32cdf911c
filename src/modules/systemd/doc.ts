import type { ModuleDoc } from '../types.js';

export const systemdDoc: ModuleDoc = {
  description:
    'A systemd unit\'s masking, boot enablement and run state, as ansible.builtin.systemd (ansible-core 2.14; also ' +
    'systemd_service) judges and registers them: name, changed, status, enabled and state. The unit is read with the ' +
    'batch\'s other service reads (one `systemctl show`); `status` holds the properties hostwire reads (LoadState, ' +
    'ActiveState, SubState, UnitFileState, NeedDaemonReload), not every property. daemon_reload and daemon_reexec run ' +
    'without a name and, as in Ansible, do not report a change. scope: user acts on the connecting (or become) user\'s ' +
    'manager with systemctl --user, XDG_RUNTIME_DIR set to /run/user/<uid> when unset (as systemd.py sets it); scope: global ' +
    'acts on every user\'s unit files with systemctl --global: masked and enabled work there; no manager runs them, so ' +
    'their ActiveState is always inactive and a state runs systemctl --global start, which starts nothing (changed every ' +
    'run, as in Ansible); a unit file in /etc/systemd/user cannot be masked (systemctl fails, reported changed as systemd.py does).',
  args: {
    name: 'The unit (.service may be left out; no glob patterns) (aliases service, unit). Needed by state, enabled and masked.',
    state: 'started or stopped (idempotent), restarted or reloaded (always act; a stopped unit is started).',
    enabled: 'Start it at boot (yes) or not (no).',
    force: 'Override existing symlinks (systemctl --force).',
    masked: 'Mask it (yes: it cannot be started) or unmask it (no).',
    daemon_reload: 'Run systemctl daemon-reload before anything else, even with nothing else to do (alias daemon-reload).',
    daemon_reexec: 'Run systemctl daemon-reexec before anything else (alias daemon-reexec).',
    scope: 'system (default), user (the user\'s manager: systemctl --user) or global (all users\' unit files: systemctl --global; mask and enable only).',
    no_block: 'Do not wait for the queued job to finish (systemctl --no-block).',
  },
  example: '- systemd:\n    name: openvswitch-switch\n    state: started\n    enabled: true\n    daemon_reload: true',
  check: 'full',
  diff: 'none',
};
