// Where vault passwords come from, as Ansible takes them: --vault-password-file (the file's
// content, or the stdout of the file when it is executable), HOSTWIRE_VAULT_PASSWORD, or a
// prompt (--ask-vault-pass, only on a terminal).
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { BadInputError } from '../errors.js';
import { VAULT_PASSWORD_ENV } from './keyring.js';

export interface PasswordSources {
  passwordFiles?: string[];
  ask?: boolean;
  env?: NodeJS.ProcessEnv;
  isTTY?: boolean;
  prompt?: (message: string) => Promise<string>;
}

export function readPasswordFile(file: string): string {
  let executable = false;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a regular file');
    accessSync(file, constants.X_OK);
    executable = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as Error).message === 'not a regular file') {
      throw new BadInputError(`--vault-password-file: cannot read '${file}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  let text: string;
  try {
    text = executable ? execFileSync(file, [], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }) : readFileSync(file, 'utf8');
  } catch (err) {
    const e = err as { status?: number; stderr?: string; message: string };
    throw new BadInputError(`--vault-password-file: ${executable ? `the password script '${file}' failed (rc=${e.status ?? '?'}): ${(e.stderr ?? '').trim() || e.message}` : `cannot read '${file}': ${e.message}`}`);
  }
  // Ansible strips whitespace around a file's password and CR/LF around a script's.
  const pw = executable ? text.replace(/^[\r\n]+|[\r\n]+$/g, '') : text.trim();
  if (!pw) throw new BadInputError(`--vault-password-file: '${file}' gives an empty password`);
  return pw;
}

/** All passwords from the given sources, in order: files, environment, prompt. */
export async function collectVaultPasswords(s: PasswordSources): Promise<string[]> {
  const out = (s.passwordFiles ?? []).map(readPasswordFile);
  const env = (s.env ?? process.env)[VAULT_PASSWORD_ENV];
  if (env) out.push(env.replace(/\r?\n$/, ''));
  if (s.ask) {
    if (!(s.isTTY ?? process.stdin.isTTY)) throw new BadInputError('--ask-vault-pass needs a terminal; without one use --vault-password-file FILE or ' + VAULT_PASSWORD_ENV);
    const prompt = s.prompt ?? (async (message: string) => (await import('@inquirer/prompts')).password({ message, mask: false }));
    const pw = (await prompt('Vault password:')).trim();
    if (!pw) throw new BadInputError('--ask-vault-pass: an empty vault password was given');
    out.push(pw);
  }
  return out;
}
