// unarchive's arguments: ansible-core 2.14's argument_spec (module and action plugin) for what hostwire
// unpacks - GNU tar's formats. The deprecated copy is read as the action plugin reads it (remote_src =
// not copy; both given is its error). A URL src (remote_src fetch), validate_certs and io_buffer_size
// (zip only) are refused by name (strict schema).
import { z } from 'zod';
import { ansibleBool } from '../kit/ansible-args.js';
import { ansibleStrList } from '../kit/ansible-list.js';
import { groupArg, ownerArg } from '../kit/account.js';
import { modeArg } from '../kit/mode.js';

const noControl = (what: string) => z.string().min(1).refine((v) => !/[\x00-\x1f\x7f]/.test(v), { message: `expected ${what} without control characters` });

const unarchiveObject = z
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

/** The action plugin's handling of copy, before the module's own arguments are checked. */
function fromCopy(raw: unknown, ctx: z.RefinementCtx): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('copy' in raw)) return raw;
  const { copy, ...rest } = raw as Record<string, unknown>;
  if ('remote_src' in rest) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['copy'], message: "parameters are mutually exclusive: ('copy', 'remote_src')" });
    return z.NEVER;
  }
  const parsed = ansibleBool.safeParse(copy);
  if (!parsed.success) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['copy'], message: 'expected a boolean (copy is the deprecated opposite of remote_src)' });
    return z.NEVER;
  }
  return { ...rest, remote_src: !parsed.data };
}

export const unarchiveArgs = z.preprocess(fromCopy, unarchiveObject);

export type UnarchiveArgs = z.infer<typeof unarchiveObject>;
