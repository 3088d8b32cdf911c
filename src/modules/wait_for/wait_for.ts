// wait_for: until a TCP port opens (or closes), a path appears (or goes, or contains a regex),
// or a command succeeds. Read-only, so it also runs in check mode. The whole loop runs on the host.
import { z } from 'zod';
import { CommandError, HostwireError } from '../../errors.js';
import type { Module } from '../types.js';
import { commandCondition, parseWait, pathCondition, portCondition, waitScript } from './script.js';
import { waitForDoc } from './doc.js';

const waitArgs = z
  .object({
    host: z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'expected a host name or address').default('127.0.0.1'),
    port: z.number().int().min(1).max(65535).optional(),
    path: z.string().min(1).optional(),
    search_regex: z.string().optional(),
    command: z.string().min(1).optional(),
    state: z.enum(['started', 'stopped', 'present', 'absent']).default('started'),
    timeout: z.number().int().min(0).default(300),
    delay: z.number().int().min(0).default(0),
    sleep: z.number().int().min(1).default(1),
    msg: z.string().optional(),
  })
  .strict()
  .refine((a) => [a.port, a.path, a.command].filter((x) => x !== undefined).length === 1, { message: "expected exactly one of 'port', 'path' or 'command'" })
  .refine((a) => a.search_regex === undefined || a.path !== undefined, { message: "'search_regex' needs 'path'", path: ['search_regex'] });

export type WaitArgs = z.infer<typeof waitArgs>;

const up = (s: WaitArgs['state']) => s === 'started' || s === 'present';

function describe(a: WaitArgs): string {
  if (a.port !== undefined) return `${a.host}:${a.port} to ${up(a.state) ? 'open' : 'close'}`;
  if (a.path !== undefined) return `${a.path} to ${up(a.state) ? (a.search_regex ? `contain /${a.search_regex}/` : 'exist') : 'be absent'}`;
  return `command to succeed: ${a.command}`;
}

export const waitForModule: Module<WaitArgs> = {
  name: 'wait_for',
  doc: waitForDoc,
  args: waitArgs,
  async run(a, ctx) {
    let condition: string;
    if (a.port !== undefined) condition = portCondition(a.host, a.port, up(a.state));
    else if (a.path !== undefined) condition = pathCondition(a.path, up(a.state), a.search_regex);
    else condition = commandCondition(a.command!);
    const tools = a.port !== undefined ? 'command -v bash >/dev/null 2>&1 || { echo wait_for:missing bash; exit 0; }\n' : '';
    const script = tools + waitScript({ condition, timeout: a.timeout, delay: a.delay, sleep: a.sleep });
    const r = await ctx.transport.exec(script, { become: ctx.become, timeoutMs: (a.timeout + a.delay + 30) * 1000 });
    if (r.stdout.includes('wait_for:missing bash')) throw new HostwireError('bad-input', `bash not found on ${ctx.host}: install bash (wait_for uses its /dev/tcp to test ports)`);
    const res = parseWait(r.stdout);
    if (!res) throw new CommandError({ command: `wait_for ${describe(a)}`, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: ctx.host });
    if (!res.ready) return { changed: false, failed: true, elapsed: res.elapsed, msg: a.msg ?? `Timeout when waiting for ${describe(a)}` };
    return { changed: false, elapsed: res.elapsed, msg: `waited ${res.elapsed}s for ${describe(a)}` };
  },
};
