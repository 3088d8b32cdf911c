// wait_for_connection: ansible-core 2.14's action over hostwire's own connection. After `delay`,
// reconnect the same transport and run hostwire's ping (an echo; Ansible runs its ping module) until
// it answers, `sleep` seconds between tries, within `timeout`. Skipped under --check, as Ansible's is.
import { z } from 'zod';
import type { Module } from '../types.js';
import { execAfterReconnect, untilSuccess, waitOrStop } from '../kit/reconnect.js';
import { waitForConnectionDoc } from './doc.js';

const pyInt = z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : typeof v === 'number' ? Math.trunc(v) : v), z.number({ invalid_type_error: 'expected a whole number of seconds' }).int());

const waitForConnectionArgs = z
  .object({ connect_timeout: pyInt.default(5), delay: pyInt.default(0), sleep: pyInt.default(1), timeout: pyInt.default(600) })
  .strict();
export type WaitForConnectionArgs = z.infer<typeof waitForConnectionArgs>;

export const waitForConnectionModule: Module<WaitForConnectionArgs> = {
  name: 'wait_for_connection',
  doc: waitForConnectionDoc,
  args: waitForConnectionArgs,
  environment: 'irrelevant',
  skipsInCheck: true,
  checkSkipped: () => ({ changed: false, skipped: true }),
  async run(args, ctx) {
    const start = Date.now();
    if (args.delay > 0) await waitOrStop(ctx, args.delay * 1000, 'wait_for_connection');
    const failed = await untilSuccess(ctx, 'wait_for_connection', args.timeout, () => args.sleep, async () => {
      const r = await execAfterReconnect(ctx, 'echo hostwire-pong', args.connect_timeout);
      if (r.stdout.trim() !== 'hostwire-pong') throw new Error('ping test failed');
    });
    const elapsed = Math.floor((Date.now() - start) / 1000);
    if (failed) return { changed: false, failed: true, msg: `timed out waiting for ping module test: ${failed.message}`, elapsed };
    return { changed: false, elapsed };
  },
};
