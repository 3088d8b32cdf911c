import type { ModuleDoc } from '../types.js';

export const statDoc: ModuleDoc = {
  description:
    'Reads a path\'s status - existence, type, mode, owner, size, times, link target, checksum, mime type, attributes - ' +
    'and registers Ansible\'s `stat` dictionary (ansible.builtin.stat, with its arguments, aliases and defaults). A pure ' +
    'read: it runs under --check as without it and its probe is read ahead with the play\'s other reads.',
  args: {
    path: 'The path on the host (aliases dest, name).',
    follow: 'Follow a symlink and report on its target.',
    get_md5: 'Also return the md5 checksum (deprecated in Ansible; use get_checksum with checksum_algorithm md5).',
    get_checksum: 'Return the checksum of a regular file.',
    get_mime: 'Return the mime type and charset (file(1)) (aliases mime, mime_type, mime-type).',
    get_attributes: 'Return the file attributes (lsattr) (aliases attr, attributes).',
    checksum_algorithm: 'md5, sha1, sha224, sha256, sha384 or sha512 (aliases checksum, checksum_algo).',
  },
  example: '- stat:\n    path: /etc/openvswitch/conf.db\n  register: ovsdb',
  check: 'full',
  diff: 'none',
};
