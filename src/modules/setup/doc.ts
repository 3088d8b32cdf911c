import type { ModuleDoc } from '../types.js';

const common = {
  gather_subset: 'Which facts: all (default), min, network, hardware, hostwire, virtual; !name leaves one out (a list or a comma-separated string).',
  gather_timeout: 'Seconds the one gathering exec may take (Ansible bounds each collector instead).',
  filter: 'Shell-style patterns (fnmatch) of the top-level fact names to keep; a pattern without ansible_ also matches with it.',
};

export const setupDoc: ModuleDoc = {
  description:
    'Gathers the host\'s facts as a task (ansible.builtin.setup, ansible-core 2.14): the facts of the gather_subset are read in ' +
    'one remote exec, as a play\'s own gathering reads them, narrowed by filter, and merged into the host\'s facts (ansible_facts.* ' +
    'and ansible_*) for the rest of the run. Runs under --check too (it changes nothing). The facts and where they differ from ' +
    'Ansible\'s: docs/facts.md.',
  args: common,
  example: '- setup:\n    gather_subset: [network]\n    filter: [ansible_default_ipv4, ansible_all_ipv4_addresses]',
  check: 'full',
  diff: 'none',
};

export const gatherFactsDoc: ModuleDoc = {
  description:
    'The gather_facts action as a task (ansible.builtin.gather_facts): setup\'s facts, merged into the host\'s facts, with ' +
    '_ansible_facts_gathered set. hostwire has one facts source (no FACTS_MODULES list), so parallel has nothing to run in parallel.',
  args: { ...common, parallel: 'Accepted for Ansible\'s sake: the facts are always one exec.' },
  example: '- gather_facts:\n    gather_subset: ["!hardware"]',
  check: 'full',
  diff: 'none',
};
