// community.general.modprobe's arguments (6.6.2, the collection ansible 7 ships beside ansible-core 2.14).
import { z } from 'zod';

export const modprobeArgs = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'expected a kernel module name (letters, digits, _ and -)'),
    state: z.enum(['absent', 'present']).default('present'),
    params: z.string().default(''),
    persistent: z.enum(['disabled', 'absent', 'present']).default('disabled'),
  })
  .strict();

export type ModprobeArgs = z.infer<typeof modprobeArgs>;
