import type { ModuleDoc } from '../types.js';

export const groupByDoc: ModuleDoc = {
  description:
    'Puts each host in a group of the run\'s in-memory inventory named by key (ansible.builtin.group_by, ansible-core 2.14): spaces ' +
    'become dashes, the group is made a child of each parent (created when missing), and later plays can target it. changed when ' +
    'the host or the group tree was not there yet. Acts on nothing on the host; runs under --check too.',
  args: {
    key: 'The group name (usually templated from facts: os_{{ ansible_distribution }}).',
    parents: 'The parent group(s) of the group (default all).',
  },
  example: '- group_by:\n    key: "os_{{ ansible_distribution }}"\n    parents: [linux]',
  check: 'full',
  diff: 'none',
};
