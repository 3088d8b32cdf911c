import type { ModuleDoc } from '../types.js';

export const tempfileDoc: ModuleDoc = {
  description:
    'Creates a fresh temporary file (mode 0600) or directory (0700) on the host and registers its path with ' +
    'uid, gid, owner, group, mode, size and state (AnsibleModule.add_path_info), as ' +
    'ansible.builtin.tempfile: the name is prefix, 8 random characters, suffix, in path or else $TMPDIR or /tmp. Made ' +
    'with mktemp(1); always changed; skipped under --check, as Ansible (no check mode).',
  args: {
    state: 'file (default) or directory.',
    path: 'The folder to create it in (default $TMPDIR or /tmp).',
    prefix: "The start of the name (default 'ansible.').",
    suffix: 'The end of the name (default empty).',
  },
  example: '- tempfile:\n    state: directory\n    suffix: build\n  register: build_dir',
  check: 'none',
  diff: 'none',
};
