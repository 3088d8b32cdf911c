import type { ModuleDoc } from '../types.js';

export const slurpDoc: ModuleDoc = {
  description:
    'Reads a file from the host and returns its content base64-encoded (content, source, encoding), as ' +
    'ansible.builtin.slurp. A pure read: it runs under --check too and is read ahead with the play\'s other reads. ' +
    'The content registered is host data: never rendered as a template.',
  args: { src: 'The file on the host (alias path).' },
  example: '- slurp:\n    src: /etc/machine-id\n  register: machine_id',
  check: 'full',
  diff: 'none',
};
