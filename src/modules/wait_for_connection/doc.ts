import type { ModuleDoc } from '../types.js';

export const waitForConnectionDoc: ModuleDoc = {
  description:
    'Waits until the host answers again over its connection (ansible.builtin.wait_for_connection, ansible-core 2.14): after ' +
    'delay, it reconnects the same transport and runs an echo (Ansible runs its ping module) until it answers, sleep seconds ' +
    'between tries, within timeout; returns elapsed (seconds). Skipped under --check, as Ansible\'s is.',
  args: {
    timeout: 'Seconds to keep trying (default 600).',
    connect_timeout: 'Seconds one reconnect-and-echo attempt may take (default 5).',
    delay: 'Seconds to wait before the first try (default 0).',
    sleep: 'Seconds between tries (default 1).',
  },
  example: '- wait_for_connection:\n    delay: 5\n    timeout: 300',
  check: 'none',
  diff: 'none',
};
