import type { ModuleDoc } from '../types.js';

const args = {
  _raw_params: 'The command line given as the task\'s value (`command: ls -l /tmp`).',
  cmd: 'The command line, as an argument instead of the task\'s value.',
  argv: 'The command as a list of words: no splitting, no quoting needed (command only runs argv[0] with the rest as arguments).',
  chdir: 'Change into this directory before running.',
  creates: 'A path: when it exists the command is not run (ok, not changed).',
  removes: 'A path: when it does not exist the command is not run.',
  stdin: 'Text fed to the command\'s standard input.',
  stdin_add_newline: 'Append a newline to stdin.',
  executable: 'shell: the shell that runs the command line (default /bin/sh).',
  strip_empty_ends: 'Strip trailing newlines from stdout and stderr in the result.',
};

export const commandDoc: ModuleDoc = {
  description:
    'Runs a program on the host without a shell: the command line is split into words as Python\'s shlex does ' +
    '(no pipes, redirections or variables). It always reports a change unless creates/removes decide it need not run. ' +
    'The result is Ansible\'s (stdout, stderr, rc, stdout_lines, start/end/delta). Under --check it is skipped unless ' +
    'creates/removes decide; then it reports what would happen.',
  args,
  example: '- name: initialise the database once\n  command: /usr/bin/db-init --data /var/lib/db\n  args:\n    creates: /var/lib/db/PG_VERSION',
  check: 'partial',
  diff: 'none',
};

export const shellDoc: ModuleDoc = {
  description:
    'Runs a command line through a shell on the host (/bin/sh or `executable`), so pipes, redirections and ' +
    'variables work; the task\'s environment: is exported first. Otherwise as command: changed unless ' +
    'creates/removes decide, Ansible\'s result shape, skipped under --check unless creates/removes decide.',
  args,
  example: '- name: record the kernel\n  shell: uname -r > /etc/kernel-at-install\n  args:\n    creates: /etc/kernel-at-install',
  check: 'partial',
  diff: 'none',
};
