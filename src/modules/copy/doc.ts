import type { ModuleDoc } from '../types.js';
import { backupDoc, fileAttrDocs, validateDoc } from '../kit/doc-args.js';

export const copyDoc: ModuleDoc = {
  description:
    'Writes a file on the host from `content` or from a file on the controller (the role\'s files/, then the ' +
    'playbook\'s folder), atomically, and sets its attributes; changed only when the bytes or the attributes differ. ' +
    'A large file is compared by size and sha256 rather than read back. Copying directories from the controller is not ' +
    'supported. remote_src: src is a file or a directory on the host, compared by sha256 and copied there as ' +
    "Ansible's copy module does (a directory: what is missing or differs is copied, nothing removed; owner/group on the " +
    'whole destination tree, mode on its top); --diff lists the paths a directory copy creates.',
  args: {
    dest: 'The file on the host.',
    content: 'The text to write (instead of src).',
    src: 'A file on the controller: files/<src> of the role, or a path (instead of content); with remote_src, a path on the host.',
    ...fileAttrDocs,
    mode: `${fileAttrDocs.mode} preserve: the mode of src.`,
    backup: backupDoc,
    force: 'no: only create the file when it is missing, never replace its content.',
    validate: validateDoc,
    remote_src: 'yes: src is a path on the host (a file, or a directory: with a trailing / its content, else the directory itself).',
    directory_mode: 'remote_src: the mode of the directory created for a dest ending with /.',
  },
  example: '- copy:\n    src: 99-ovs.conf\n    dest: /etc/sysctl.d/99-ovs.conf\n    mode: "0644"',
  check: 'full',
  diff: 'full',
};
