// unarchive's arguments: ansible-core 2.14's argument_spec (module and action plugin) for what hostwire
// unpacks - GNU tar's formats. A URL src (remote_src fetch), validate_certs, io_buffer_size (zip only)
// and the deprecated copy are refused by name (strict schema).
import { z } from 'zod';
import { ansibleBool } from '../kit/ansible-args.js';
import { ansibleStrList } from '../kit/ansible-list.js';
import { groupArg, ownerArg } from '../kit/account.js';
import { modeArg } from '../kit/mode.js';

const noControl = (what: string) => z.string().min(1).refine((v) => !/[\x00-\x1f\x7f]/.test(v), { message: `expected ${what} without control characters` });

export const unarchiveArgs = z
  .object({
    src: noControl('a path').refine((v) => !v.includes('://'), { message: 'expected a path: fetching a URL (remote_src with ://) is not supported natively' }),
    dest: noControl('a path').refine((v) => v.startsWith('/'), { message: 'expected dest as an absolute path' }),
    remote_src: ansibleBool.default(false),
    creates: noControl('a path').optional(),
    list_files: ansibleBool.default(false),
    keep_newer: ansibleBool.default(false),
    exclude: ansibleStrList.default([]),
    include: ansibleStrList.default([]),
    extra_opts: ansibleStrList.default([]),
    decrypt: ansibleBool.default(true),
    mode: modeArg.optional(),
    owner: ownerArg.optional(),
    group: groupArg.optional(),
  })
  .strict()
  .refine((a) => !(a.include.length && a.exclude.length), { message: 'parameters are mutually exclusive: include|exclude' });

export type UnarchiveArgs = z.infer<typeof unarchiveArgs>;
