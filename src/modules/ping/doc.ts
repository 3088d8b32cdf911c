import type { ModuleDoc } from '../types.js';

export const pingDoc: ModuleDoc = {
  description:
    'Proves the host answers over hostwire\'s connection and can run a shell (not an ICMP ping), as ansible.builtin.ping: ' +
    'returns `data` as `ping`; data crash fails as the module raises. Its read is one echo in the play\'s batched read, ' +
    'so a ping costs no exec of its own.',
  args: { data: 'The value to return as ping (crash: fail).' },
  example: '- ping:',
  check: 'full',
  diff: 'none',
};
