import type { ModuleDoc } from '../types.js';
import { backupDoc, fileAttrDocs, validateDoc } from '../kit/doc-args.js';

export const templateDoc: ModuleDoc = {
  description:
    'Renders a Jinja2 template from the role\'s templates/ with the task\'s variables on the controller and writes ' +
    'the result like copy: atomically, changed only when the bytes or attributes differ. Values that came from a host ' +
    'are inserted as text, never rendered again.',
  args: {
    src: 'The template: templates/<src> of the role, or a path on the controller.',
    dest: 'The file on the host.',
    ...fileAttrDocs,
    backup: backupDoc,
    force: 'no: only create the file when it is missing, never replace its content.',
    validate: validateDoc,
  },
  example: '- template:\n    src: ifcfg.j2\n    dest: /etc/sysconfig/network-scripts/ifcfg-br-ex\n    mode: "0644"',
  check: 'full',
  diff: 'full',
};
