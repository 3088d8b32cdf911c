// selinux's arguments (ansible.posix 1.5.4): conf and file are aliases of configfile.
import { z } from 'zod';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';
import { SYSTEM_CONFIG } from './read.js';

export const selinuxArgs = withAliases(
  z
    .object({
      policy: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected a policy name (letters, digits, _ . -)').optional(),
      state: z.enum(['enforcing', 'permissive', 'disabled']),
      configfile: z.string().startsWith('/', 'expected an absolute path').default(SYSTEM_CONFIG),
      update_kernel_param: ansibleBool.default(false),
    })
    .strict(),
  { configfile: ['conf', 'file'] },
);
export type SelinuxArgs = z.infer<typeof selinuxArgs>;
