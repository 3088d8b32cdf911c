import type { ModuleDoc } from '../types.js';
import { backupDoc, fileAttrDocs } from '../kit/doc-args.js';

export const blockinfileDoc: ModuleDoc = {
  description:
    'A block of lines between two marker lines in a file, as ansible.builtin.blockinfile: inserted, replaced when it ' +
    'differs, or removed, leaving the rest of the file alone. The file is read in the play\'s batched read and written ' +
    'atomically; --check predicts and --diff shows the file before and after. validate is refused, and so is a symlink ' +
    'at path.',
  args: {
    path: 'The file on the host (aliases dest, destfile, name).',
    state: 'present or absent.',
    marker: 'The marker line template; {mark} becomes marker_begin / marker_end.',
    block: 'The lines between the markers (alias content).',
    insertafter: 'A new block goes after the last line matching this expression (EOF: at the end).',
    insertbefore: 'A new block goes before the last line matching this expression (BOF: at the start).',
    create: 'Create the file when it is missing (else that is an error).',
    backup: backupDoc,
    validate: 'Not supported (refused): check the file in a later task.',
    marker_begin: 'Replaces {mark} in the opening marker.',
    marker_end: 'Replaces {mark} in the closing marker.',
    ...fileAttrDocs,
  },
  example: '- blockinfile:\n    path: /etc/hosts\n    block: |\n      192.0.2.11 node1\n      192.0.2.12 node2',
  check: 'full',
  diff: 'full',
};
