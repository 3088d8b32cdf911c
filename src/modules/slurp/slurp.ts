// slurp: a file's content from the host, base64-encoded (ansible.builtin.slurp, ansible-core 2.14:
// `src` with its alias `path`; result content/source/encoding; its four failure messages). A pure
// read: it runs under --check too, and is read ahead with the play's other reads.
import { z } from 'zod';
import { inlineProbe } from '../../probe/batch.js';
import { ProbeParseError } from '../../errors.js';
import { quoteWord } from '../kit/shell-words.js';
import type { Module } from '../types.js';
import type { Probe, ProbeOutput } from '../../probe/types.js';
import { withAliases } from '../kit/ansible-args.js';
import { slurpDoc } from './doc.js';

const slurpArgs = withAliases(z.object({ src: z.string().min(1) }).strict(), { src: ['path'] });
export type SlurpArgs = z.infer<typeof slurpArgs>;

export type SlurpRead = { content: string } | { msg: string };

/** The failures slurp.py's open() can meet, in its order: missing, a directory, unreadable, anything else. */
export function slurpCommand(src: string): string {
  return inlineProbe(
    `{ f=${quoteWord(src)}; if [ ! -e "$f" ]; then echo slurp:missing; elif [ -d "$f" ]; then echo slurp:isdir; elif [ ! -r "$f" ]; then echo slurp:unreadable; ` +
      `else printf 'content:'; if base64 -w0 < "$f"; then printf '\\nslurp:ok\\n'; else printf '\\nslurp:failed\\n'; fi; fi; }`,
  );
}

export function parseSlurp(out: ProbeOutput, src: string): SlurpRead {
  const lines = out.stdout.split('\n');
  const status = lines.find((l) => l.startsWith('slurp:'))?.slice(6);
  switch (status) {
    case 'ok': {
      const content = lines.find((l) => l.startsWith('content:'));
      if (content === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(content.slice(8))) throw new ProbeParseError(`slurp of ${src}: no base64 content`, out.stdout);
      return { content: content.slice(8) };
    }
    case 'missing': return { msg: `file not found: ${src}` };
    case 'isdir': return { msg: `source is a directory and must be a file: ${src}` };
    case 'unreadable': return { msg: `file is not readable: ${src}` };
    case 'failed': return { msg: `unable to slurp file: ${src} could not be read` };
    default: throw new ProbeParseError(`slurp of ${src}: the probe printed no status`, out.stdout);
  }
}

export const slurpProbe = (a: SlurpArgs): Probe<SlurpRead> => ({ command: slurpCommand(a.src), parse: (out) => parseSlurp(out, a.src) });

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
