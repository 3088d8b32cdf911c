import type { ModuleDoc } from '../types.js';

export const pauseDoc: ModuleDoc = {
  description:
    'Pauses the run on the controller (ansible.builtin.pause, ansible-core 2.14), once per batch of hosts. With seconds or ' +
    'minutes it waits that long (at least one second); Ctrl-C ends the wait and the run. Without them it asks the prompt and ' +
    'registers the answer as user_input when the run is interactive (a terminal, not --json or --yes), and otherwise warns that ' +
    'it did not wait, as Ansible does when stdin is not interactive. It waits under --check too, as Ansible\'s does.',
  args: {
    seconds: 'Seconds to wait (a whole number; values below 1 wait 1).',
    minutes: 'Minutes to wait; not with seconds.',
    prompt: 'The question asked (without seconds/minutes: the answer becomes user_input).',
    echo: 'Show what is typed at the prompt (default true).',
  },
  example: '- pause:\n    seconds: 10',
  check: 'full',
  diff: 'none',
};
