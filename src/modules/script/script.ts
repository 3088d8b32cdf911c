// script: the controller's script run on the host (ansible.builtin.script, ansible-core 2.14's action:
// free form or cmd, creates, removes, chdir (absolute), executable, decrypt; always changed; a
// non-zero rc fails with 'non-zero return code'; under --check skipped unless creates/removes decide).
// One exec over the host's one connection: the script arrives on stdin into a private temp folder
// (0700), runs there with its arguments as written, and the folder is removed whatever the outcome.
// Unlike Ansible over ssh (a tty: stderr folded into stdout with \r\n, "Shared connection ... closed."
// as stderr), stdout and stderr come back apart and unaltered.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { inlineProbe } from '../../probe/batch.js';
import { isVaultText } from '../../vault/index.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool } from '../kit/ansible-args.js';
import { quoteWord, splitWords } from '../kit/shell-words.js';
import { pythonSplitLines } from '../kit/python-lines.js';
import { findSource } from '../kit/source.js';
import { splitScriptLine } from './command-line.js';
import { scriptDoc } from './doc.js';

const line = z.string().refine((s) => s.trim() !== '', { message: 'expected the script to run (and its arguments)' });

const scriptArgs = z
  .object({
    _raw_params: line.optional(),
    cmd: line.optional(),
    creates: z.string().min(1).optional(),
    removes: z.string().min(1).optional(),
    chdir: z.string().min(1).optional(),
    executable: z.string().min(1).optional(),
    decrypt: ansibleBool.default(true),
  })
  .strict()
  .refine((a) => !(a._raw_params !== undefined && a.cmd !== undefined), { message: "The 'cmd' argument cannot be used when other raw parameters are specified." })
  .refine((a) => a._raw_params !== undefined || a.cmd !== undefined, { message: 'expected the script to run: free form or cmd' })
  .refine((a) => { try { splitScriptLine((a._raw_params ?? a.cmd)!); return true; } catch { return false; } }, { message: 'expected a command line with balanced quotes' });

export type ScriptArgs = z.infer<typeof scriptArgs>;

const existsProbe = (path: string) => ({ command: inlineProbe(`test -e ${quoteWord(path)}`), parse: (o: { rc: number }) => o.rc === 0 });

/** creates/removes: the action's own skip when they decide (also under --check). */
async function decided(a: ScriptArgs, ctx: ModuleContext): Promise<ModuleResult | undefined> {
  if (a.creates !== undefined && (await ctx.probe(existsProbe(a.creates)))) return { changed: false, skipped: true, msg: `${a.creates} exists, matching creates option` };
  if (a.removes !== undefined && !(await ctx.probe(existsProbe(a.removes)))) return { changed: false, skipped: true, msg: `${a.removes} does not exist, matching removes option` };
  return undefined;
}

/** `environment:` exported for the script, every value quoted (names were checked by the runner). */
const exports = (env: Record<string, string> | undefined) =>
  Object.entries(env ?? {}).map(([k, v]) => `export ${k}=${quoteWord(v)}; `).join('');

/** The one exec: stdin -> a 0700 file in a fresh private folder, run, folder removed, the script's rc kept. */
export function scriptCommand(o: { name: string; rest: string; chdir?: string; executable?: string; env?: Record<string, string> }): string {
  const run = `${o.executable ? `${splitWords(o.executable).map(quoteWord).join(' ')} ` : ''}"$d"/${quoteWord(o.name)}${o.rest}`;
  const cd = o.chdir ? `cd ${quoteWord(o.chdir)} && ` : '';
  return [
    // mktemp -d makes the folder 0700; the script keeps the host's umask for what it creates.
    `d=$(mktemp -d "\${TMPDIR:-/tmp}/hostwire-script.XXXXXXXX") || exit 1`,
    `trap 'rm -rf -- "$d"' EXIT`,
    `cat > "$d"/${quoteWord(o.name)} && chmod 0700 "$d"/${quoteWord(o.name)} || exit 1`,
    `(${exports(o.env)}${cd}${run}) < /dev/null`,
  ].join('\n');
}

function sourceOf(a: ScriptArgs, ctx: ModuleContext, script: string): { path: string } | { failed: ModuleResult } {
  try {
    return { path: findSource(ctx.baseDir, 'files', script) };
  } catch (e) {
    return { failed: { changed: false, failed: true, msg: `Could not find or access '${script}' on the controller: ${(e as Error).message}` } };
  }
}

async function runScript(a: ScriptArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const skip = await decided(a, ctx);
  if (skip) return skip;
  if (a.chdir !== undefined && !a.chdir.startsWith('/')) return { changed: false, failed: true, msg: `chdir ${a.chdir} must be an absolute path for a Unix-aware remote node` };
  const { script, rest } = splitScriptLine((a._raw_params ?? a.cmd)!);
  const found = sourceOf(a, ctx, script);
  if ('failed' in found) return found.failed;
  const content = readFileSync(found.path);
  if (a.decrypt && isVaultText(content.subarray(0, 64).toString('latin1'))) {
    return { changed: false, failed: true, msg: `${found.path} is vault-encrypted: hostwire's script does not decrypt files (decrypt it first, or set decrypt: false to run it as it is)` };
  }
  // Reached under --check only with creates/removes that let it run (the runner skipped the rest).
  if (ctx.check) return { changed: true };
  const command = scriptCommand({ name: basename(found.path), rest, chdir: a.chdir, executable: a.executable, env: ctx.environment });
  const r = await ctx.transport.exec(command, { stdin: content, become: ctx.become });
  const result = { changed: true, rc: r.code, stdout: r.stdout, stdout_lines: pythonSplitLines(r.stdout), stderr: r.stderr, stderr_lines: pythonSplitLines(r.stderr) };
  return r.code !== 0 ? { ...result, failed: true, msg: 'non-zero return code' } : result;
}

export const scriptModule: Module<ScriptArgs> = {
  name: 'script',
  doc: scriptDoc,
  args: scriptArgs,
  environment: 'applies',
  skipsInCheck: (a) => a.creates === undefined && a.removes === undefined,
  checkSkipped: () => ({ changed: false, skipped: true, msg: 'Check mode is not supported for this task.' }),
  readsAhead: (a) => [a.creates, a.removes].filter((p): p is string => p !== undefined).map(existsProbe),
  run: runScript,
};
