// ansible-vault compatible secrets: decryption/encryption, password sources, masking.
export { decryptVault, encryptVault, VaultPasswordError } from './aes256.js';
export { isVaultText, parseEnvelope, formatEnvelope, type VaultEnvelope } from './envelope.js';
export { setVaultPasswords, vaultPasswords, keepVaultValuesEncrypted, decryptFileText, decryptInline, VAULT_PASSWORD_ENV } from './keyring.js';
export { collectVaultPasswords, readPasswordFile, type PasswordSources } from './password.js';
export { addSecret, addSecretsDeep, clearSecrets, hasSecrets, maskText, maskValue, MASK } from './secrets.js';
export { registerSecretVars, SECRET_VARS_KEY } from './secret-vars.js';
export { vaultTag, withVaultTag, VAULT_TAG_PREFIX } from './yaml-tag.js';
