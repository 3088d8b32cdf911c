import type { ModuleDoc } from '../types.js';
import { backupDoc, fileAttrDocs } from '../kit/doc-args.js';

export const iniFileDoc: ModuleDoc = {
  description:
    'Sets (or removes) one option of an INI-style file - NetworkManager conf.d and keyfiles, /etc/default, ' +
    '/etc/sysconfig - computed purely from the old content and written atomically when it differs. Other lines, ' +
    'comments and the order are kept.',
  args: {
    path: 'The INI file on the host (alias dest).',
    section: 'The [section]; null or omitted for the options before the first section.',
    option: 'The option name (no = in it); without it, state absent removes the whole section.',
    value: 'The value (one line).',
    state: 'present or absent.',
    no_extra_spaces: 'Write option=value instead of option = value.',
    create: 'Create the file when it is missing (else that is an error).',
    backup: backupDoc,
    ...fileAttrDocs,
  },
  example: '- ini_file:\n    path: /etc/NetworkManager/conf.d/99-hostwire.conf\n    section: main\n    option: dns\n    value: none',
  check: 'full',
  diff: 'full',
};
