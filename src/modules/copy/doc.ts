import type { ModuleDoc } from '../types.js';
import { backupDoc, fileAttrDocs, validateDoc } from '../kit/doc-args.js';

export const copyDoc: ModuleDoc = {
  description:
    'Writes a file on the host from `content` or from a file on the controller (the role\'s files/, then the ' +
    'playbook\'s folder), atomically, and sets its attributes; changed only when the bytes or the attributes differ. ' +
    'A large file is compared by size and sha256 rather than read back. Copying directories is not supported.',
  args: {
    dest: 'The file on the host.',
    content: 'The text to write (instead of src).',
    src: 'A file on the controller: files/<src> of the role, or a path (instead of content).',
    ...fileAttrDocs,
    backup: backupDoc,
    force: 'no: only create the file when it is missing, never replace its content.',
    validate: validateDoc,
  },
  example: '- copy:\n    src: 99-ovs.conf\n    dest: /etc/sysctl.d/99-ovs.conf\n    mode: "0644"',
  check: 'full',
  diff: 'full',
};
