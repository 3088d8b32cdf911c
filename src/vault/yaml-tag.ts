// The `!vault` YAML tag (ansible-vault encrypt_string output) for the `yaml` library's
// customTags. Tag resolution cannot know the file:line, so a failure is reported through the
// library's error list, which the YAML readers turn into a located BadInputError.
import { BadInputError } from '../errors.js';
import { decryptInline, vaultValuesStayEncrypted } from './keyring.js';

export const VAULT_TAG_PREFIX = '!vault: ';

export const vaultTag = {
  tag: '!vault',
  resolve(source: string, onError: (msg: string) => void): string | { __ansible_vault: string } {
    if (vaultValuesStayEncrypted()) return { __ansible_vault: source };
    try {
      return decryptInline(source, { file: '' });
    } catch (err) {
      // Strip the empty location the keyring added; the reader prepends the real one.
      const msg = err instanceof BadInputError ? err.message.replace(/^: /, '') : String(err);
      onError(VAULT_TAG_PREFIX + msg);
      return '';
    }
  },
};

/** customTags for the `yaml` library: add !vault to whatever tag list (or function) is in use. */
export function withVaultTag<T>(tags: T[]): T[] {
  return [...tags, vaultTag as unknown as T];
}
