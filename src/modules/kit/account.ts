// owner/group arguments of the file-writing modules: a user/group name as useradd/groupadd accept
// it, or a numeric id (a YAML number too, as Ansible takes it). Anything else - above all a value
// that chown would read as an option, such as '--reference=/etc/shadow' - is an argument error.
import { z } from 'zod';
import { isValidAccount } from '../../transports/write-script.js';

const account = (what: 'owner' | 'group') =>
  z
    .union([z.string(), z.number().int().nonnegative().transform(String)])
    .refine(isValidAccount, {
      message: `expected a ${what === 'owner' ? 'user' : 'group'} name (letters, digits, '_', '-', not starting with '-', at most 32) or a numeric id`,
    });

export const ownerArg = account('owner');
export const groupArg = account('group');
