import type { ModuleDoc } from '../types.js';

export const fetchDoc: ModuleDoc = {
  description:
    'Copies a file from the host to the controller, as ansible.builtin.fetch: to dest/<inventory_hostname>/<src>, or ' +
    'with flat to dest itself (dest/<basename> when dest ends with /), relative to the playbook folder. The host file is ' +
    'read in the play\'s batched read; the controller copy is rewritten (atomically, 0644) only when its sha1 differs. ' +
    'Skipped under --check, as Ansible. A src whose .. would leave dest is refused.',
  args: {
    src: 'The file on the host (symlinks followed; not a directory).',
    dest: 'The folder (or, with flat, the file) on the controller.',
    flat: 'Put the file at dest itself instead of dest/<host>/<src>.',
    fail_on_missing: 'Fail when src is missing or a directory (default yes).',
    validate_checksum: 'Check the copy against the host file\'s sha1 (default yes).',
  },
  example: '- fetch:\n    src: /etc/kubernetes/admin.conf\n    dest: artifacts/\n    flat: true',
  check: 'none',
  diff: 'none',
};
