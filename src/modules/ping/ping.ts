// ping: proves the host answers over hostwire's connection (ansible.builtin.ping, ansible-core 2.14:
// `data`, default 'pong', returned as `ping`; data 'crash' fails as the module raises). Its read is
// one `echo` in the play's batched read, so a ping costs no exec of its own.
import { z } from 'zod';
import { inlineProbe } from '../../probe/batch.js';
import { ProbeParseError } from '../../errors.js';
import type { Module } from '../types.js';
import type { Probe } from '../../probe/types.js';
import { pingDoc } from './doc.js';

const pingArgs = z.object({ data: z.union([z.string(), z.number(), z.boolean()]).transform(String).default('pong') }).strict();
export type PingArgs = z.infer<typeof pingArgs>;

export const PONG_PROBE: Probe<true> = {
  command: inlineProbe('echo hostwire-pong'),
  parse: (out) => {
    if (out.stdout.trim() !== 'hostwire-pong') throw new ProbeParseError('ping: the host did not answer the echo', out.stdout);
    return true;
  },
};

export const pingModule: Module<PingArgs> = {
  name: 'ping',
  doc: pingDoc,
  args: pingArgs,
  environment: 'irrelevant',
  async run(a, ctx) {
    await ctx.probe(PONG_PROBE);
    // ping.py raises Exception("boom") for this value: a test hook for failure handling.
    if (a.data === 'crash') return { changed: false, failed: true, msg: 'Exception: boom' };
    return { changed: false, ping: a.data };
  },
  readsAhead: () => [PONG_PROBE],
};
