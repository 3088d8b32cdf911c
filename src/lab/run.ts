// Local command execution for the lab: one place that turns a failed command into a CommandError.
import { readFile } from 'node:fs/promises';
import { execa } from 'execa';
import { CommandError } from '../errors.js';

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
}

export async function run(
  cmd: string,
  args: string[],
  options: { input?: string; check?: boolean; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<RunResult> {
  const r = await execa(cmd, args, {
    reject: false,
    input: options.input,
    stdin: options.input === undefined ? 'ignore' : undefined,
    timeout: options.timeoutMs,
    env: options.env,
  });
  const res = { stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), code: r.exitCode ?? (r.timedOut ? 124 : 1) };
  if (options.check !== false && res.code !== 0) {
    throw new CommandError({ command: [cmd, ...args].join(' '), exitCode: res.code, stdout: res.stdout, stderr: res.stderr });
  }
  return res;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** True while `pid` exists (a zombie counts as gone). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
