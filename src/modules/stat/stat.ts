// stat: Ansible's file status read (ansible.builtin.stat, ansible-core 2.14): arguments, aliases,
// defaults and the registered `stat` dictionary as Ansible's. A pure read: it runs under --check as
// it does without it, and its probe is read ahead with the play's other reads (one exec per host).
import { z } from 'zod';
import type { Module, ModuleContext } from '../types.js';
import type { Probe } from '../../probe/types.js';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';
import { CHECKSUM_TOOLS, statCommand, type ChecksumAlgorithm } from './probe.js';
import { parseStatRead, type StatRead } from './parse.js';
import { statDoc } from './doc.js';

const statArgs = withAliases(
  z
    .object({
      path: z.string().min(1),
      follow: ansibleBool.default(false),
      // Undocumented since 2.9 but still read by stat.py (get_checksum with md5 replaces it).
      get_md5: ansibleBool.default(false),
      get_checksum: ansibleBool.default(true),
      get_mime: ansibleBool.default(true),
      get_attributes: ansibleBool.default(true),
      checksum_algorithm: z.enum(Object.keys(CHECKSUM_TOOLS) as [ChecksumAlgorithm, ...ChecksumAlgorithm[]]).default('sha1'),
    })
    .strict(),
  {
    path: ['dest', 'name'],
    get_mime: ['mime', 'mime_type', 'mime-type'],
    get_attributes: ['attr', 'attributes'],
    checksum_algorithm: ['checksum', 'checksum_algo'],
  },
);

export type StatArgs = z.infer<typeof statArgs>;

export function statProbe(a: StatArgs): Probe<StatRead> {
  const command = statCommand({
    path: a.path,
    follow: a.follow,
    checksum: a.get_checksum ? a.checksum_algorithm : undefined,
    md5: a.get_md5,
    mime: a.get_mime,
    attributes: a.get_attributes,
  });
  return { command, parse: (out) => parseStatRead(out, { path: a.path, mime: a.get_mime, attributes: a.get_attributes }) };
}

async function runStat(a: StatArgs, ctx: ModuleContext) {
  const read = await ctx.probe(statProbe(a));
  if (read.kind === 'error') return { changed: false, failed: true, msg: read.msg };
  return { changed: false, stat: read.kind === 'missing' ? { exists: false } : read.stat };
}

export const statModule: Module<StatArgs> = {
  name: 'stat',
  doc: statDoc,
  args: statArgs,
  run: runStat,
  readsAhead: (a) => [statProbe(a)],
};
