import type { ModuleDoc } from '../types.js';

export const debugDoc: ModuleDoc = {
  description: 'Prints a message or the value of a variable in the run\'s output; acts on nothing. Runs in check mode too.',
  args: {
    msg: 'The message (any value, rendered with the task\'s variables). Default "Hello world!".',
    var: 'An expression (a variable name) whose value is printed instead of msg.',
    verbosity: 'Print only when the run was given at least this many -v.',
  },
  example: '- debug:\n    msg: "{{ inventory_hostname }} has {{ ansible_processor_nproc }} CPUs"',
  check: 'full',
  diff: 'none',
};

export const assertDoc: ModuleDoc = {
  description: 'Fails the host when an expression is false; every expression of `that` must hold. Acts on nothing.',
  args: {
    that: 'An expression or a list of them (Jinja2 conditions without braces).',
    fail_msg: 'The message when an expression is false.',
    msg: 'Alias of fail_msg.',
    success_msg: 'The message when every expression holds.',
    quiet: 'Do not print the details of a success.',
  },
  example: '- assert:\n    that:\n      - ansible_memtotal_mb >= 2048\n    fail_msg: "at least 2 GiB of memory needed"',
  check: 'full',
  diff: 'none',
};

export const failDoc: ModuleDoc = {
  description: 'Fails the host with a message (usually under `when:`). Acts on nothing.',
  args: { msg: 'The failure message.' },
  example: '- fail:\n    msg: "unsupported distribution {{ ansible_distribution }}"\n  when: ansible_os_family != "Debian"',
  check: 'full',
  diff: 'none',
};

export const setFactDoc: ModuleDoc = {
  description: 'Sets host variables (facts) from the task\'s key/value pairs for the rest of the run. Acts on nothing on the host.',
  args: {},
  example: '- set_fact:\n    node_subnet: "{{ lease.subnet }}"',
  check: 'full',
  diff: 'none',
};

export const metaDoc: ModuleDoc = {
  description: 'Acts on the run itself: flush_handlers runs notified handlers now; end_play, end_host, clear_facts, noop, refresh_inventory, clear_host_errors and reset_connection as in Ansible.',
  args: { _raw_params: 'The action, given as the task\'s value (`meta: flush_handlers`).' },
  example: '- meta: flush_handlers',
  check: 'full',
  diff: 'none',
};
