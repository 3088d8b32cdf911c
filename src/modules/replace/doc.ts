import type { ModuleDoc } from '../types.js';

export const replaceDoc: ModuleDoc = {
  description:
    'Replaces every match of a Python regular expression in a file, as ansible.builtin.replace (its arguments, aliases, ' +
    'defaults, after/before sections and messages): the pattern is MULTILINE, the replacement takes \\1 and \\g<name>. ' +
    'The file is read in the play\'s batched read, the match over it is time-bounded, and the result is written through ' +
    'the verified install. validate, a symlinked path and text not valid in encoding are refused.',
  args: {
    path: 'The file to edit (aliases dest, destfile, name).',
    regexp: 'The Python regular expression to find (MULTILINE).',
    replace: 'The replacement (default empty: delete the matches); \\1, \\g<1>, \\g<name> refer to groups.',
    after: 'Only replace after the first match of this pattern (DOTALL).',
    before: 'Only replace before the match of this pattern (DOTALL).',
    backup: 'Keep a timestamped copy of the old file.',
    validate: 'Refused by hostwire (the command would not be run).',
    encoding: 'The file\'s encoding: utf-8 (default), latin-1 or ascii.',
    mode: 'The file mode, octal or symbolic (g-w), as for copy.',
    owner: 'The owner (name or uid).',
    group: 'The group (name or gid).',
  },
  example: "- replace:\n    path: /etc/ssh/sshd_config\n    regexp: '^#?PermitRootLogin .*$'\n    replace: PermitRootLogin prohibit-password",
  check: 'full',
  diff: 'full',
};
