import type { ModuleDoc } from '../types.js';

export const addHostDoc: ModuleDoc = {
  description:
    'Adds a host (and groups) to the run\'s in-memory inventory (ansible.builtin.add_host, ansible-core 2.14), for the later plays ' +
    'of the run. Runs once per batch, not per host (with a loop: once per item). Every argument other than name and groups becomes ' +
    'a host variable (ansible_host, ansible_port ...; name:port sets ansible_ssh_port); these values are data, never rendered ' +
    'again. changed when the inventory changed. Acts on nothing on a host; runs under --check too, as Ansible\'s does.',
  args: {
    name: 'The host\'s inventory name, or name:port.',
    groups: 'Groups to put it in (a list, or a comma-separated string).',
  },
  example: '- add_host:\n    name: "{{ new_ip }}"\n    groups: [just_created]\n    ansible_user: root',
  check: 'full',
  diff: 'none',
};
