import type { ModuleDoc } from '../types.js';

export const rawDoc: ModuleDoc = {
  description:
    'Runs the command line as written through the host\'s shell, as ansible.builtin.raw: always changed, a non-zero rc ' +
    'fails, skipped under --check (it cannot predict). Unlike Ansible over ssh (a tty), stdout and stderr come back apart ' +
    'and unaltered.',
  args: {
    _raw_params: 'The command line, given as the task\'s value.',
    executable: 'Run it as <executable> -c \'<command>\' instead of through the login shell.',
  },
  example: '- raw: test -e /usr/bin/python3 || (apt-get update && apt-get install -y python3)',
  check: 'none',
  diff: 'none',
};
