// reboot: ansible-core 2.14's reboot action over hostwire's own connection. Read the boot id, run
// `shutdown -r <min> <msg>` (found in search_paths; alpine's `reboot`), wait post_reboot_delay, then
// reconnect the same transport until the boot id differs and test_command succeeds, each within
// reboot_timeout, backing off as Ansible does. Under --check it says it would reboot, as Ansible does.
import { z } from 'zod';
import { TransportError } from '../../errors.js';
import { LocalTransport } from '../../transports/index.js';
import { shellJoin, shellQuote } from '../../transports/quote.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { execAfterReconnect, untilSuccess, waitOrStop } from '../kit/reconnect.js';
import { rebootDoc } from './doc.js';

/** int() of the action: '5' and 5 (a float is truncated). */
const pyInt = z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : typeof v === 'number' ? Math.trunc(v) : v), z.number({ invalid_type_error: 'expected a whole number of seconds' }).int());
const DEFAULT_PATHS = ['/sbin', '/bin', '/usr/sbin', '/usr/bin', '/usr/local/sbin'];

const rebootArgs = z
  .object({
    reboot_timeout: pyInt.default(600),
    connect_timeout: pyInt.optional(),
    pre_reboot_delay: pyInt.default(0).transform((n) => Math.max(0, n)),
    post_reboot_delay: pyInt.default(0).transform((n) => Math.max(0, n)),
    test_command: z.string().default('whoami'),
    boot_time_command: z.string().default('cat /proc/sys/kernel/random/boot_id'),
    msg: z.string().default('Reboot initiated by Ansible'),
    reboot_command: z.string({ invalid_type_error: "Invalid value given for 'reboot_command': expected a string" }).optional(),
    search_paths: z.union([z.array(z.string()), z.string()]).transform((v) => (Array.isArray(v) ? v : v.split(','))).default(DEFAULT_PATHS),
  })
  .strict();
export type RebootArgs = z.infer<typeof rebootArgs>;

/** The action's backoff after the n-th failure: 2^n plus up to a second, at most 12 (and a bit). */
const backoff = (n: number) => Math.min(2 ** n, 12) + Math.random();

/** The shutdown command as get_shutdown_command(_args) builds it (its message quoted for the shell). */
async function shutdownCommand(args: RebootArgs, ctx: ModuleContext): Promise<string> {
  const [given, ...rest] = (args.reboot_command ?? '').split(' ');
  const find = (bin: string) => `. /etc/os-release 2>/dev/null; echo "ID=$ID"; for d in ${shellJoin(args.search_paths)}; do [ -e "$d"/${shellQuote(bin)} ] && echo "$d"/${shellQuote(bin)}; done; true`;
  const r = await ctx.transport.exec(find(given || 'shutdown'), { become: ctx.become });
  const lines = r.stdout.split('\n');
  const alpine = !args.reboot_command && lines[0] === 'ID=alpine';
  const bin = args.reboot_command ? given! : alpine ? 'reboot' : 'shutdown';
  const found = bin.startsWith('/') ? bin : alpine ? (await ctx.transport.exec(find('reboot'))).stdout.split('\n')[1] : lines[1];
  if (!found) throw new Error(`Unable to find command "${bin}" in search paths: ${pyList(args.search_paths)}`);
  if (args.reboot_command) return [found, rest.join(' ')].join(' ').trim();
  return alpine ? found : `${found} -r ${Math.floor(args.pre_reboot_delay / 60)} ${shellQuote(args.msg)}`;
}

/** Python's repr of a list of str, as the action's message prints search_paths. */
const pyList = (l: string[]) => `[${l.map((x) => `'${x.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ')}]`;

/** Python's datetime.utcnow().isoformat(): the action's `start` of a failed reboot command. */
const utcIso = () => new Date().toISOString().replace(/Z$/, '000');

/** Sends the reboot; a connection that drops while it runs is the host going down (rc 0). */
async function sendReboot(command: string, ctx: ModuleContext): Promise<{ ok: true } | { ok: false; msg: string }> {
  try {
    const r = await ctx.transport.exec(command, { become: ctx.become });
    if (r.code !== 0) return { ok: false, msg: `Reboot command failed. Error was: '${r.stdout.trim()}, ${r.stderr.trim()}'` };
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
  }
  return { ok: true };
}

async function reboot(args: RebootArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const before = await ctx.transport.exec(args.boot_time_command, { become: ctx.become });
  if (before.code !== 0) {
    return { changed: false, failed: true, reboot: false, msg: `reboot: failed to get host boot time info, rc: ${before.code}, stdout: ${before.stdout}, stderr: ${before.stderr}` };
  }
  let command: string;
  try {
    command = await shutdownCommand(args, ctx);
  } catch (e) {
    return { changed: false, failed: true, msg: (e as Error).message };
  }
  const sent = await sendReboot(command, ctx);
  const start = Date.now();
  const elapsed = () => Math.floor((Date.now() - start) / 1000);
  if (!sent.ok) return { changed: false, failed: true, rebooted: false, msg: sent.msg, start: utcIso(), elapsed: elapsed() };
  if (args.post_reboot_delay) await waitOrStop(ctx, args.post_reboot_delay * 1000, 'reboot');
  const perAttempt = args.connect_timeout ?? 10;
  const bootChanged = await untilSuccess(ctx, 'reboot', args.reboot_timeout, backoff, async () => {
    const r = await execAfterReconnect(ctx, args.boot_time_command, perAttempt);
    const now = r.stdout.trim();
    if (r.code !== 0) throw new Error(`boot time command failed (rc ${r.code})`);
    if (!now || now === before.stdout.trim()) throw new Error('boot time has not changed');
  });
  if (bootChanged) return { changed: false, failed: true, rebooted: true, msg: `Timed out waiting for last boot time check (timeout=${args.reboot_timeout})`, elapsed: elapsed() };
  const tested = await untilSuccess(ctx, 'reboot', args.reboot_timeout, backoff, async () => {
    const r = await execAfterReconnect(ctx, args.test_command, perAttempt);
    if (r.code !== 0) throw new Error(`Test command failed: ${r.stderr} ${r.stdout}`);
  });
  if (tested) return { changed: false, failed: true, rebooted: true, msg: `Timed out waiting for post-reboot test command (timeout=${args.reboot_timeout})`, elapsed: elapsed() };
  return { changed: true, rebooted: true, elapsed: elapsed() };
}

export const rebootModule: Module<RebootArgs> = {
  name: 'reboot',
  doc: rebootDoc,
  args: rebootArgs,
  environment: 'irrelevant',
  skipsInCheck: true,
  checkSkipped: () => ({ changed: true, elapsed: 0, rebooted: true }),
  async run(args, ctx) {
    if (ctx.transport instanceof LocalTransport) {
      return { changed: false, elapsed: 0, rebooted: false, failed: true, msg: 'Running reboot with local connection would reboot the control node.' };
    }
    return reboot(args, ctx);
  },
};
