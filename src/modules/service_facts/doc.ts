import type { ModuleDoc } from '../types.js';

export const serviceFactsDoc: ModuleDoc = {
  description:
    "Returns the host's services as ansible_facts.services (ansible.builtin.service_facts): each by name with its " +
    "state, status and source, read from sysvinit's service --status-all and systemd's list-units / list-unit-files " +
    'exactly as the module reads them, in the play\'s batched read (one systemctl show for all unit files, where the ' +
    'module runs one per unit). Hosts with chkconfig, upstart\'s initctl or OpenRC are refused (not built).',
  args: {},
  example: '- service_facts:\n  # then: ansible_facts.services["ssh.service"].state',
  check: 'full',
  diff: 'none',
};
