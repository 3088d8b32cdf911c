// command and shell: run something on the host. `creates`/`removes` make them idempotent. Check mode
// is Ansible's partial support: without creates/removes the runner skips them (skipsInCheck, with this
// module's result shape); with them the probe decides, and a command that would run is reported changed.
import { z } from 'zod';
import type { BackgroundCommand, Module, ModuleContext, ModuleResult } from '../types.js';
import { quoteWord, splitWords } from '../kit/shell-words.js';
import { inlineProbe } from '../../probe/batch.js';
import { pythonSplitLines } from '../kit/python-lines.js';
import type { ProbeRead } from '../../probe/types.js';
import { commandDoc, shellDoc } from './doc.js';

// Ansible's command module fails an empty command ("no command given"): refused before the run.
const commandText = z.string().refine((s) => s.trim() !== '', { message: 'no command given; expected a command to run' });

const commandArgs = z
  .object({
    _raw_params: commandText.optional(),
    cmd: commandText.optional(),
    argv: z.array(z.union([z.string(), z.number()]).transform(String)).min(1, { message: 'no command given; expected a non-empty argv' }).optional(),
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

/** `environment:` exported in the command's own shell, every value quoted (names were checked by the runner). */
function withEnvironment(script: string, env: Record<string, string> | undefined): string {
  const entries = Object.entries(env ?? {});
  if (!entries.length) return script;
  return `export ${entries.map(([k, v]) => `${k}=${quoteWord(v)}`).join(' ')}\n${script}`;
}

/** `creates`/`removes`: one test in the batch's shell (the runner reads them ahead with the other probes). */
export const existsProbe = (path: string) => ({ command: inlineProbe(`test -e ${quoteWord(path)}`), parse: (o: { rc: number }) => o.rc === 0 });

function readsAhead(args: CommandArgs): ProbeRead[] {
  return [args.creates, args.removes].filter((p): p is string => p !== undefined).map(existsProbe);
}

/** Python's str(datetime) and str(timedelta), the strings Ansible registers as start/end/delta. */
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export const pyDatetime = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds() * 1000, 6)}`;
export const pyTimedelta = (ms: number) =>
  `${Math.floor(ms / 3600000)}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad((ms % 1000) * 1000, 6)}`;

/**
 * ansible-core's command module result (stable-2.14): the keys it always returns, with
 * stdout_lines/stderr_lines as its action plugin adds them. `cmd` is the argument list for
 * command, the string for shell.
 */
function commandResult(r: { changed: boolean; rc: number | null; stdout?: string; stderr?: string; cmd: string | string[]; msg: string }, extra: Record<string, unknown> = {}): ModuleResult {
  const stdout = r.stdout ?? '';
  const stderr = r.stderr ?? '';
  return {
    changed: r.changed, stdout, stderr, rc: r.rc, cmd: r.cmd, start: null, end: null, delta: null, msg: r.msg,
    ...extra,
    stdout_lines: pythonSplitLines(stdout), stderr_lines: pythonSplitLines(stderr),
  };
}

/** The argv Ansible registers as `cmd` (command), or the shell text (shell). */
const commandCmd = (args: CommandArgs, viaShell: boolean): string | string[] =>
  args.argv ?? (viaShell ? (args._raw_params ?? args.cmd)! : splitWords((args._raw_params ?? args.cmd)!));

/** Without creates/removes nothing predicts a command: under --check the runner skips it. */
const undecided = (args: CommandArgs) => args.creates === undefined && args.removes === undefined;

/** What Ansible's command module returns when check mode skips it (ansible-core 2.14 command.py). */
const checkSkipped = (viaShell: boolean) => (args: CommandArgs): ModuleResult =>
  commandResult({ changed: false, rc: 0, cmd: commandCmd(args, viaShell), msg: 'Command would have run if not in check mode' }, { skipped: true });

/** creates/removes: the result when they decide the command is not run. */
async function decidedByPaths(args: CommandArgs, ctx: ModuleContext, cmd: string | string[]): Promise<ModuleResult | undefined> {
  const would = ctx.check ? 'Would' : 'Did';
  for (const [key, wantExists] of [['creates', true], ['removes', false]] as const) {
    const p = args[key];
    if (p === undefined) continue;
    const exists = await ctx.probe(existsProbe(p));
    if (exists === wantExists) {
      const what = wantExists ? 'exists' : 'does not exist';
      return commandResult({ changed: false, rc: 0, cmd, stdout: `skipped, since ${p} ${what}`, msg: `${would} not run command since '${p}' ${what}` });
    }
  }
  return undefined;
}

const stdinOf = (args: CommandArgs) => (args.stdin === undefined ? undefined : args.stdin + (args.stdin_add_newline ? '\n' : ''));

/** `async:` runs the same script detached (see kit/async-job.ts); creates/removes still decide first. */
async function background(args: CommandArgs, ctx: ModuleContext, viaShell: boolean): Promise<BackgroundCommand | { done: ModuleResult }> {
  const cmd = commandCmd(args, viaShell);
  const done = await decidedByPaths(args, ctx, cmd);
  if (done) return { done };
  const script = withEnvironment(buildScript(args, viaShell), ctx.environment);
  return { script, stdin: stdinOf(args), result: { changed: true, cmd, msg: '' }, stripEmptyEnds: args.strip_empty_ends };
}

async function runCommand(args: CommandArgs, ctx: ModuleContext, viaShell: boolean): Promise<ModuleResult> {
  const script = buildScript(args, viaShell);
  const cmd = commandCmd(args, viaShell);
  const done = await decidedByPaths(args, ctx, cmd);
  if (done) return done;
  // Reached under --check only with creates/removes (the runner skipped the rest): they say it would run.
  if (ctx.check) return commandResult({ changed: true, rc: 0, cmd, msg: 'Command would have run if not in check mode' });
  const stdin = stdinOf(args);
  const started = new Date();
  const r = await ctx.transport.exec(withEnvironment(script, ctx.environment), { stdin, become: ctx.become });
  const ended = new Date();
  const strip = (s: string) => (args.strip_empty_ends ? s.replace(/[\r\n]+$/, '') : s);
  const result = commandResult(
    { changed: true, rc: r.code, cmd, stdout: strip(r.stdout), stderr: strip(r.stderr), msg: r.code !== 0 ? 'non-zero return code' : '' },
    { start: pyDatetime(started), end: pyDatetime(ended), delta: pyTimedelta(ended.getTime() - started.getTime()) },
  );
  return r.code !== 0 ? { ...result, failed: true } : result;
}

export const commandModule: Module<CommandArgs> = {
  name: 'command',
  doc: commandDoc,
  args: commandArgs,
  run: (args, ctx) => runCommand(args, ctx, false),
  background: (args, ctx) => background(args, ctx, false),
  skipsInCheck: undecided,
  checkSkipped: checkSkipped(false),
  environment: 'applies',
  readsAhead,
};

export const shellModule: Module<CommandArgs> = {
  name: 'shell',
  doc: shellDoc,
  args: commandArgs,
  run: (args, ctx) => runCommand(args, ctx, true),
  background: (args, ctx) => background(args, ctx, true),
  skipsInCheck: undecided,
  checkSkipped: checkSkipped(true),
  environment: 'applies',
  readsAhead,
};
