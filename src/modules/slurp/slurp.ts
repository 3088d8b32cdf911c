// slurp: a file's content from the host, base64-encoded (ansible.builtin.slurp, ansible-core 2.14:
// `src` with its alias `path`; result content/source/encoding; its four failure messages). A pure
// read: it runs under --check too, and is read ahead with the play's other reads.
import { z } from 'zod';
import type { Module } from '../types.js';
import { contentProbe } from '../kit/content-read.js';
import { withAliases } from '../kit/ansible-args.js';
import { slurpDoc } from './doc.js';

const slurpArgs = withAliases(z.object({ src: z.string().min(1) }).strict(), { src: ['path'] });
export type SlurpArgs = z.infer<typeof slurpArgs>;

export const slurpProbe = (a: SlurpArgs) => contentProbe(a.src);

export const slurpModule: Module<SlurpArgs> = {
  name: 'slurp',
  doc: slurpDoc,
  args: slurpArgs,
  environment: 'irrelevant',
  async run(a, ctx) {
    const read = await ctx.probe(slurpProbe(a));
    if ('msg' in read) return { changed: false, failed: true, msg: read.msg };
    return { changed: false, content: read.content, source: a.src, encoding: 'base64' };
  },
  readsAhead: (a) => [slurpProbe(a)],
};
