import type { ModuleDoc } from '../types.js';
import { backupDoc, fileAttrDocs } from '../kit/doc-args.js';

export const lineinfileDoc: ModuleDoc = {
  description:
    'Makes sure one line is in a file (or is not), leaving every other line alone, with Ansible\'s rules: the last ' +
    'line matching regexp is replaced; when nothing matches but the exact line is there, nothing changes; otherwise ' +
    'the line goes after insertafter / before insertbefore (EOF when not found). Regular expressions are Python\'s ' +
    '(named groups included). The file is read once and written atomically.',
  args: {
    path: 'The file on the host (aliases dest, destfile, name).',
    line: 'The line (one line: no newline in it).',
    regexp: 'The line to replace (present) or remove (absent) matches this regular expression.',
    state: 'present or absent.',
    insertafter: 'Insert after the last line matching this expression (EOF for the end).',
    insertbefore: 'Insert before the last line matching this expression (BOF for the start).',
    firstmatch: 'insertafter/insertbefore use the first match instead of the last.',
    backrefs: 'Expand \\1 and \\g<name> of the regexp match into line; when regexp matches nothing, nothing changes.',
    create: 'Create the file when it is missing (else that is an error).',
    backup: backupDoc,
    ...fileAttrDocs,
  },
  example: '- lineinfile:\n    path: /etc/default/grub\n    regexp: "^GRUB_TIMEOUT="\n    line: "GRUB_TIMEOUT=2"',
  check: 'full',
  diff: 'full',
};
