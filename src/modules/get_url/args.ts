// get_url's arguments (ansible-core 2.14 get_url.py's argument_spec with url_argument_spec; the
// options hostwire does not support - client certificates, GSSAPI, ciphers, netrc - are refused).
import { z } from 'zod';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';
import { fileAttrArgs } from '../kit/file-content.js';
import { urlArgAliases, urlArgs } from '../kit/http-args.js';

export const getUrlArgs = withAliases(
  z
    .object({
      ...urlArgs,
      timeout: urlArgs.timeout.default(10),
      dest: z.string().min(1),
      checksum: z.string().default(''),
      tmp_dest: z.string().min(1).optional(),
      ...fileAttrArgs,
      backup: ansibleBool.default(false),
    })
    .strict(),
  { ...urlArgAliases, force: ['thirsty'] },
);

export type GetUrlArgs = z.infer<typeof getUrlArgs>;
