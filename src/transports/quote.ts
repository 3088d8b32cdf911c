// POSIX shell quoting, sudo wrapping and secret masking. Everything that builds command text
// for a host goes through here so a password can only travel on stdin, never in argv or logs.
import { BadInputError } from '../errors.js';
import type { BecomeOptions } from './transport.js';

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quote one word for /bin/sh: left bare when safe, else single-quoted with ' escaped as '\''. */
export function shellQuote(word: string): string {
  if (word !== '' && SAFE.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Quote and join argv words into one command line. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

export interface WrappedCommand {
  /** Command text to run with /bin/sh -c on the host (contains no secret). */
  command: string;
  /** Bytes to write to stdin before the caller's own stdin (the sudo password line), if any. */
  stdinPrefix?: string;
}

/**
 * Run `command` as another user through sudo. Without a password sudo must not prompt (-n);
 * with one, sudo reads it from stdin (-S) with an empty prompt so nothing leaks into output.
 * Limitation: if the sudo rule needs no password, the password line reaches the command's stdin.
 */
export function wrapBecome(command: string, become?: BecomeOptions): WrappedCommand {
  if (!become?.enabled) return { command };
  const user = become.user ?? 'root';
  const inner = `/bin/sh -c ${shellQuote(command)}`;
  if (become.password !== undefined) {
    return { command: `sudo -S -p '' -H -u ${shellQuote(user)} -- ${inner}`, stdinPrefix: `${become.password}\n` };
  }
  return { command: `sudo -n -H -u ${shellQuote(user)} -- ${inner}` };
}

/** Prefix env exports and a cd so they apply inside a become wrapper too (sudo resets env). */
export function withEnvAndCwd(command: string, env?: Record<string, string>, cwd?: string): string {
  let prefix = '';
  for (const [k, v] of Object.entries(env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new BadInputError(`invalid environment variable name: ${JSON.stringify(k)}`);
    prefix += `export ${k}=${shellQuote(v)}; `;
  }
  if (cwd !== undefined) prefix += `cd ${shellQuote(cwd)} && `;
  return prefix ? `${prefix}${command}` : command;
}

/** Replace every occurrence of each secret with ******** (secrets shorter than 3 chars are masked too). */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join('********');
  return out;
}

/** Run under timeout(1) on the host: TERM after `ms`, KILL 2 s later; rc 124 like timeout(1). */
export function withTimeout(command: string, ms?: number): string {
  if (!ms) return command;
  return `timeout -k 2 ${(ms / 1000).toFixed(3)} /bin/sh -c ${shellQuote(command)}`;
}
