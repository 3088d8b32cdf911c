import type { ModuleDoc } from '../types.js';
import { fileAttrDocs } from '../kit/doc-args.js';

export const fileDoc: ModuleDoc = {
  description:
    'Makes a path a file, a directory, a symlink, absent, or touched, with the mode/owner/group given. One read ' +
    '(stat, merged with the other file reads of the batch) and only what differs is changed. touch creates a missing ' +
    'file and fixes attributes but keeps timestamps, so it converges (Ansible\'s touch with preserved times). ' +
    'recurse: yes sets mode/owner/group on everything under a directory too (one find on the host; each entry compared ' +
    'on its own, a symbolic mode per entry, only what differs changed); symbolic links inside are not followed.',
  args: {
    path: 'The path on the host (aliases dest, name).',
    state: 'file: must exist as a regular file (never created); directory: created with parents; link: a symlink to src; absent: removed (recursively); touch: created empty when missing.',
    src: 'state link: the link\'s target.',
    ...fileAttrDocs,
    force: 'state link: replace a file or directory standing where the link should be.',
    recurse: 'state directory (the default then): apply mode/owner/group to everything under the directory too; links get owner/group, not mode.',
  },
  example: '- file:\n    path: /etc/openvswitch/conf.d\n    state: directory\n    mode: "0755"',
  check: 'full',
  diff: 'full',
};
