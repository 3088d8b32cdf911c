// The vault passwords of this process, and decryption of whole files and `!vault` values with
// them. Everything decrypted is registered as secret, so it is masked in all output.
// Passwords come from setVaultPasswords() (the CLI's --vault-password-file / --ask-vault-pass)
// or, for library users and `hostwire test`, from the HOSTWIRE_VAULT_PASSWORD environment variable.
import YAML from 'yaml';
import { BadInputError, type SourceLoc } from '../errors.js';
import { decryptVault, VaultPasswordError } from './aes256.js';
import { isVaultText } from './envelope.js';
import { addSecret, addSecretsDeep } from './secrets.js';

export const VAULT_PASSWORD_ENV = 'HOSTWIRE_VAULT_PASSWORD';
const HOW = `give the password with --vault-password-file FILE, the ${VAULT_PASSWORD_ENV} environment variable or --ask-vault-pass`;

let configured: string[] | undefined;
let keepEncrypted = false;

/**
 * ansible-inventory's way: with no vault password, an inline `!vault` value is kept as its
 * ciphertext ({"__ansible_vault": ...}) instead of failing the load.
 */
export function keepVaultValuesEncrypted(on: boolean): void {
  keepEncrypted = on;
}

/** True when an inline vault value cannot be decrypted and should stay as ciphertext. */
export function vaultValuesStayEncrypted(): boolean {
  return keepEncrypted && vaultPasswords().length === 0;
}

export function setVaultPasswords(passwords: string[] | undefined): void {
  configured = passwords?.length ? [...passwords] : undefined;
}

export function vaultPasswords(): string[] {
  if (configured) return configured;
  const env = process.env[VAULT_PASSWORD_ENV];
  return env ? [env.replace(/\r?\n$/, '')] : [];
}

/** Decrypt envelope text; errors name where the data came from and what to do. */
export function decryptAt(envelope: string, loc: SourceLoc, what = 'file'): string {
  const passwords = vaultPasswords();
  if (!passwords.length) throw new BadInputError(`this ${what} is encrypted with ansible-vault but no vault password was given; ${HOW}`, loc);
  try {
    return decryptVault(envelope, passwords);
  } catch (err) {
    const reason = err instanceof VaultPasswordError ? err.message : `bad vault data: ${(err as Error).message}`;
    throw new BadInputError(`cannot decrypt this vault-encrypted ${what}: ${reason}`, loc, err);
  }
}

/**
 * Text of a file that may be vault-encrypted: plain text passes through; encrypted text is
 * decrypted and its values become secrets (parsed as YAML to find them; non-YAML counts whole).
 */
export function decryptFileText(text: string, file: string): string {
  if (!isVaultText(text)) return text;
  const plain = decryptAt(text, { file, line: 1, column: 1 });
  let data: unknown = plain;
  try {
    data = YAML.parse(plain, { version: '1.1' });
  } catch {
    data = plain;
  }
  if (data !== null && typeof data === 'object') addSecretsDeep(data);
  else addSecret(plain);
  return plain;
}

/** An inline `!vault |` value: decrypted at load time, and secret. */
export function decryptInline(envelope: string, loc: SourceLoc): string {
  const plain = decryptAt(envelope, loc, '!vault value');
  addSecret(plain);
  return plain;
}
