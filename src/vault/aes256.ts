// ansible-vault's AES256 cipher with node:crypto: PBKDF2-HMAC-SHA256 (10000 iterations) over a
// 32-byte salt gives 80 bytes = AES key, HMAC key, CTR counter; the PKCS#7-padded plaintext is
// encrypted with AES-256-CTR and authenticated with HMAC-SHA256 over the ciphertext.
import { createCipheriv, createDecipheriv, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { formatEnvelope, parseEnvelope } from './envelope.js';

const keyCache = new Map<string, { aesKey: Buffer; hmacKey: Buffer; iv: Buffer }>();

function deriveKeys(password: string, salt: Buffer) {
  const cacheKey = `${salt.toString('hex')}\0${password}`;
  let k = keyCache.get(cacheKey);
  if (!k) {
    const d = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, 10000, 80, 'sha256');
    k = { aesKey: d.subarray(0, 32), hmacKey: d.subarray(32, 64), iv: d.subarray(64, 80) };
    keyCache.set(cacheKey, k);
  }
  return k;
}

export class VaultPasswordError extends Error {}

/** Decrypt envelope text with one of the passwords; VaultPasswordError when none matches. */
export function decryptVault(text: string, passwords: string[]): string {
  const env = parseEnvelope(text);
  for (const password of passwords) {
    const { aesKey, hmacKey, iv } = deriveKeys(password, env.salt);
    const mac = createHmac('sha256', hmacKey).update(env.ciphertext).digest();
    if (mac.length !== env.hmac.length || !timingSafeEqual(mac, env.hmac)) continue;
    const d = createDecipheriv('aes-256-ctr', aesKey, iv);
    const padded = Buffer.concat([d.update(env.ciphertext), d.final()]);
    return unpad(padded).toString('utf8');
  }
  throw new VaultPasswordError(passwords.length > 1 ? 'none of the vault passwords matches (HMAC check failed)' : 'wrong vault password (HMAC check failed)');
}

export function encryptVault(plaintext: string, password: string, opts: { vaultId?: string; salt?: Buffer } = {}): string {
  const salt = opts.salt ?? randomBytes(32);
  const { aesKey, hmacKey, iv } = deriveKeys(password, salt);
  const c = createCipheriv('aes-256-ctr', aesKey, iv);
  const ciphertext = Buffer.concat([c.update(pad(Buffer.from(plaintext, 'utf8'))), c.final()]);
  const hmac = createHmac('sha256', hmacKey).update(ciphertext).digest();
  return formatEnvelope({ salt, hmac, ciphertext, vaultId: opts.vaultId });
}

function pad(b: Buffer): Buffer {
  const n = 16 - (b.length % 16);
  return Buffer.concat([b, Buffer.alloc(n, n)]);
}

function unpad(b: Buffer): Buffer {
  const n = b[b.length - 1] ?? 0;
  if (n < 1 || n > 16 || n > b.length || !b.subarray(b.length - n).every((x) => x === n)) throw new Error('bad padding after decryption');
  return b.subarray(0, b.length - n);
}
