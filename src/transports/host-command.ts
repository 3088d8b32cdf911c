// How a command reaches the host's shell. Linux limits one argument to 128 KiB (MAX_ARG_STRLEN)
// and sshd hands the whole command to the login shell as one `-c` argument (local: /bin/sh -c),
// so a large script (a probe batch over thousands of loop items) is sent on stdin to `sh -s`.
import { TransportError } from '../errors.js';
import { withEnvAndCwd, withTimeout, wrapBecome } from './quote.js';
import type { ExecOptions } from './transport.js';

/** Largest command sent as the command line: half the kernel's limit leaves room for wrappers. */
export const MAX_COMMAND_LINE_BYTES = 64 * 1024;

/** True when `script` can travel as a command line (the lock's first read must). */
export function fitsCommandLine(script: string): boolean {
  return Buffer.byteLength(script) <= MAX_COMMAND_LINE_BYTES;
}

export interface HostCommand {
  /** Text for `sh -c` on the host (contains no secret). */
  command: string;
  /** Bytes for the command's stdin: the sudo password line, the script itself, the caller's stdin. */
  stdin?: Buffer;
}

/** The command line and stdin that run `command` with the exec options (env, cwd, timeout, become). */
export function buildHostCommand(command: string, options: ExecOptions = {}): HostCommand {
  const script = withEnvAndCwd(command, options.env, options.cwd);
  const direct = wrapBecome(withTimeout(script, options.timeoutMs), options.become);
  if (fitsCommandLine(direct.command)) return { command: direct.command, stdin: joinStdin([direct.stdinPrefix, options.stdin]) };
  if (options.stdin !== undefined) {
    throw new TransportError(`command of ${Buffer.byteLength(script)} bytes is too long for the host's command line and its stdin is taken`);
  }
  // `sh -s` reads the script from stdin. The braces make the shell read all of it before running
  // anything, and the script's commands get /dev/null, as a `-c` command with no stdin would.
  const viaStdin = wrapBecome(withTimeout('/bin/sh -s', options.timeoutMs), options.become);
  return { command: viaStdin.command, stdin: joinStdin([viaStdin.stdinPrefix, `{\n${script}\n} </dev/null\n`]) };
}

function joinStdin(parts: (string | Buffer | undefined)[]): Buffer | undefined {
  if (parts.every((p) => p === undefined)) return undefined;
  return Buffer.concat(parts.map((p) => (p === undefined ? Buffer.alloc(0) : typeof p === 'string' ? Buffer.from(p) : p)));
}
