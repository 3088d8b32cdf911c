import type { ModuleDoc } from '../types.js';

export const scriptDoc: ModuleDoc = {
  description:
    'Runs a script from the controller (the role\'s or playbook\'s files/, or a path) on the host, as ansible.builtin.script: ' +
    'the first word of the line names the script, the rest are its arguments as written (shell text, as in Ansible). One ' +
    'exec: the script goes over stdin into a private temp folder, runs, and the folder is removed. Always changed; a ' +
    'non-zero exit fails. Under --check it is skipped unless creates/removes decide. stdout and stderr come back apart ' +
    '(Ansible\'s ssh tty folds stderr into stdout). A vault-encrypted script is refused.',
  args: {
    _raw_params: 'The free-form line: the script, then its arguments.',
    cmd: 'The same line as an argument (instead of free form).',
    creates: 'A host path: when it exists, the script is not run.',
    removes: 'A host path: when it does not exist, the script is not run.',
    chdir: 'An absolute host folder to run the script in.',
    executable: 'The program to run the script with (e.g. python3), instead of its shebang.',
    decrypt: 'Decrypt a vault-encrypted script (not supported: such a script is refused); false uploads it as it is.',
  },
  example: '- script: files/prepare-node.sh --mtu 1400\n  args:\n    creates: /etc/node-prepared',
  check: 'partial',
  diff: 'none',
};
