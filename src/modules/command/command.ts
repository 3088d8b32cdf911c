// command and shell: run something on the host. `creates`/`removes` make them idempotent; in check
// mode they cannot predict their effect, so they skip (unless creates/removes already decides).
import { z } from 'zod';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { quoteWord, splitWords } from '../shell-words.js';
import { inlineProbe } from '../../facts/batch.js';

const commandArgs = z
  .object({
    _raw_params: z.string().optional(),
    cmd: z.string().optional(),
    argv: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
    chdir: z.string().optional(),
    creates: z.string().optional(),
    removes: z.string().optional(),
    stdin: z.string().optional(),
    stdin_add_newline: z.boolean().default(true),
    executable: z.string().optional(),
    strip_empty_ends: z.boolean().default(true),
  })
  .strict()
  .refine((a) => [a._raw_params, a.cmd, a.argv].filter((x) => x !== undefined).length === 1, {
    message: 'expected exactly one of: a free-form command, cmd, argv',
  });

type CommandArgs = z.infer<typeof commandArgs>;

function buildScript(args: CommandArgs, viaShell: boolean): string {
  let script: string;
  if (args.argv) script = args.argv.map(quoteWord).join(' ');
  else if (viaShell) script = (args._raw_params ?? args.cmd)!;
  else script = splitWords((args._raw_params ?? args.cmd)!).map(quoteWord).join(' ');
  if (viaShell && args.executable) script = `${quoteWord(args.executable)} -c ${quoteWord(script)}`;
  return args.chdir ? `cd ${quoteWord(args.chdir)} && ${script}` : script;
}

/** `creates`/`removes`: one test in the batch's shell (the runner reads them ahead with the other probes). */
export const existsProbe = (path: string) => ({ command: inlineProbe(`test -e ${quoteWord(path)}`), parse: (o: { rc: number }) => o.rc === 0 });

function readsAhead(args: CommandArgs): string[] {
  return [args.creates, args.removes].filter((p): p is string => p !== undefined).map((p) => existsProbe(p).command);
}

async function runCommand(args: CommandArgs, ctx: ModuleContext, viaShell: boolean): Promise<ModuleResult> {
  const cmd = buildScript(args, viaShell);
  for (const [key, wantExists] of [['creates', true], ['removes', false]] as const) {
    const p = args[key];
    if (p === undefined) continue;
    const exists = await ctx.probe(existsProbe(p));
    if (exists === wantExists) {
      return { changed: false, cmd, rc: 0, stdout: '', stderr: '', msg: `skipped, since ${p} ${wantExists ? 'exists' : 'does not exist'}` };
    }
  }
  if (ctx.check) return { changed: false, skipped: true, msg: 'Command would have run if not in check mode' };
  const stdin = args.stdin === undefined ? undefined : args.stdin + (args.stdin_add_newline ? '\n' : '');
  const started = Date.now();
  const r = await ctx.transport.exec(cmd, { stdin, become: ctx.become });
  const strip = (s: string) => (args.strip_empty_ends ? s.replace(/\n+$/, '') : s);
  const stdout = strip(r.stdout);
  const stderr = strip(r.stderr);
  return {
    changed: true,
    failed: r.code !== 0,
    cmd,
    rc: r.code,
    stdout,
    stderr,
    stdout_lines: stdout === '' ? [] : stdout.split('\n'),
    stderr_lines: stderr === '' ? [] : stderr.split('\n'),
    delta: `${((Date.now() - started) / 1000).toFixed(3)}s`,
    msg: r.code !== 0 ? 'non-zero return code' : '',
  };
}

export const commandModule: Module<CommandArgs> = {
  name: 'command',
  args: commandArgs,
  run: (args, ctx) => runCommand(args, ctx, false),
  readsAhead,
};

export const shellModule: Module<CommandArgs> = {
  name: 'shell',
  args: commandArgs,
  run: (args, ctx) => runCommand(args, ctx, true),
  readsAhead,
};
