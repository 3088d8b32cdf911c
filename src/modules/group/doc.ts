import type { ModuleDoc } from '../types.js';

export const groupDoc: ModuleDoc = {
  description:
    'A local group, as ansible.builtin.group on Linux: groupadd (-g, -o, -r), groupmod -g and groupdel (lgroupadd/lgroupmod/' +
    'lgroupdel with local), the group read with getent (or /etc/group with local) in the play\'s batched read. Its ' +
    'result is group.py\'s: name, state, changed, and gid and system while the group exists. --check predicts.',
  args: {
    name: 'The group\'s name.',
    state: 'present or absent.',
    gid: 'The group\'s id; an existing group is changed to it.',
    system: 'Create it as a system group (groupadd -r).',
    local: 'Use the lgroup* tools and /etc/group only (libuser).',
    non_unique: 'Allow a gid another group has (-o); needs gid.',
  },
  example: '- group:\n    name: openvswitch\n    system: true',
  check: 'full',
  diff: 'partial',
};
