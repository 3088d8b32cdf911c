// The text shape of ansible-vault data: a `$ANSIBLE_VAULT;1.1;AES256` (or 1.2 with a vault id)
// header, then the hex of "hex(salt)\nhex(hmac)\nhex(ciphertext)" wrapped at 80 columns.
export const VAULT_HEADER = '$ANSIBLE_VAULT';

export interface VaultEnvelope {
  version: string;
  cipher: string;
  vaultId?: string;
  salt: Buffer;
  hmac: Buffer;
  ciphertext: Buffer;
}

export const isVaultText = (text: string): boolean => text.trimStart().startsWith(`${VAULT_HEADER};`);

/** Parse envelope text; throws Error with a reason a user can act on. */
export function parseEnvelope(text: string): VaultEnvelope {
  const lines = text.trim().split(/\r?\n/).map((l) => l.trim());
  const header = lines[0]!.split(';');
  if (header[0] !== VAULT_HEADER || header.length < 3) throw new Error(`not ansible-vault data: the first line must be '${VAULT_HEADER};1.1;AES256'`);
  const [, version, cipher, vaultId] = header as [string, string, string, string | undefined];
  if (version !== '1.1' && version !== '1.2') throw new Error(`unsupported vault format version '${version}' (1.1 and 1.2 are supported)`);
  if (cipher !== 'AES256') throw new Error(`unsupported vault cipher '${cipher}' (only AES256 is supported)`);
  const body = lines.slice(1).join('');
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(body)) throw new Error('the vault body is not hexadecimal (was the file edited or truncated?)');
  const inner = Buffer.from(body, 'hex').toString('latin1').split('\n');
  if (inner.length !== 3 || !inner.every((p) => /^(?:[0-9a-fA-F]{2})+$/.test(p))) throw new Error('the vault body does not hold salt, hmac and ciphertext');
  const [salt, hmac, ciphertext] = inner.map((p) => Buffer.from(p, 'hex')) as [Buffer, Buffer, Buffer];
  return { version, cipher, vaultId: version === '1.2' ? vaultId : undefined, salt, hmac, ciphertext };
}

export function formatEnvelope(e: Pick<VaultEnvelope, 'salt' | 'hmac' | 'ciphertext'> & { vaultId?: string }): string {
  const header = e.vaultId ? `${VAULT_HEADER};1.2;AES256;${e.vaultId}` : `${VAULT_HEADER};1.1;AES256`;
  const inner = [e.salt, e.hmac, e.ciphertext].map((b) => b.toString('hex')).join('\n');
  const hex = Buffer.from(inner, 'latin1').toString('hex');
  const rows = hex.match(/.{1,80}/g) ?? [];
  return [header, ...rows].join('\n') + '\n';
}
