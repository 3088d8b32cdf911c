import type { ModuleDoc } from '../types.js';

export const setStatsDoc: ModuleDoc = {
  description:
    'Sets custom stats for the run (ansible.builtin.set_stats, ansible-core 2.14). Each key of data is kept per host (per_host) or ' +
    'for the whole run; aggregate adds to the value already there (numbers add, strings and lists join, dictionaries merge) ' +
    'instead of replacing it, and a value of another type leaves the old one, as Ansible does. They are printed after the recap ' +
    'as CUSTOM STATS when show_custom_stats is set (ansible.cfg [defaults] or ANSIBLE_SHOW_CUSTOM_STATS) and are in the --json summary.',
  args: {
    data: 'The stats: a mapping of names (Python identifiers) to values.',
    per_host: 'Keep them per host rather than for the whole run (default false).',
    aggregate: 'Add to the existing value instead of replacing it (default true).',
  },
  example: '- set_stats:\n    data:\n      nodes_ready: 1\n    aggregate: true',
  check: 'full',
  diff: 'none',
};
