// crypt(3) hashes for password_hash and the password lookup's encrypt=: SHA-256/SHA-512 crypt
// (Ulrich Drepper's specification, $5$/$6$) and MD5 crypt ($1$), on Node's hash functions. The
// outputs are checked against passlib/glibc results recorded with ansible-core 2.14 (test/vars).
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { TemplateFailure } from '../undefined.js';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function b64From24(b2: number, b1: number, b0: number, n: number): string {
  let w = (b2 << 16) | (b1 << 8) | b0;
  let out = '';
  for (let i = 0; i < n; i++) {
    out += ITOA64[w & 0x3f];
    w >>>= 6;
  }
  return out;
}

/** The byte order of each output group, from the specification (the last group may be shorter). */
const SHA512_ORDER = [
  [0, 21, 42], [22, 43, 1], [44, 2, 23], [3, 24, 45], [25, 46, 4], [47, 5, 26], [6, 27, 48], [28, 49, 7], [50, 8, 29], [9, 30, 51], [31, 52, 10],
  [53, 11, 32], [12, 33, 54], [34, 55, 13], [56, 14, 35], [15, 36, 57], [37, 58, 16], [59, 17, 38], [18, 39, 60], [40, 61, 19], [62, 20, 41],
];
const SHA256_ORDER = [[0, 10, 20], [21, 1, 11], [12, 22, 2], [3, 13, 23], [24, 4, 14], [15, 25, 5], [6, 16, 26], [27, 7, 17], [18, 28, 8], [9, 19, 29]];
const MD5_ORDER = [[0, 6, 12], [1, 7, 13], [2, 8, 14], [3, 9, 15], [4, 10, 5]];

function encode(d: Buffer, order: number[][]): string {
  return order.map(([a, b, c]) => b64From24(d[a!]!, d[b!]!, d[c!]!, 4)).join('');
}

/** `times` bytes of `block` repeated. */
function repeatTo(block: Buffer, times: number): Buffer {
  const out = Buffer.alloc(times);
  for (let i = 0; i < times; i++) out[i] = block[i % block.length]!;
  return out;
}

/** crypto.hash where Node has it (20.12+: no Hash object per call), else createHash. */
const oneShot = (crypto as { hash?: (algo: string, data: Buffer, enc: 'buffer') => Buffer }).hash;
function digestOnce(algo: string, data: Buffer): Buffer {
  return oneShot ? oneShot(algo, data, 'buffer') : createHash(algo).update(data).digest();
}

function shaCrypt(algo: 'sha256' | 'sha512', key: Buffer, salt: Buffer, rounds: number): Buffer {
  const H = (...parts: Buffer[]): Buffer => {
    const h = createHash(algo);
    for (const p of parts) h.update(p);
    return h.digest();
  };
  const size = algo === 'sha512' ? 64 : 32;
  const b = H(key, salt, key);
  const a = createHash(algo).update(key).update(salt).update(repeatTo(b, key.length));
  for (let n = key.length; n > 0; n >>= 1) a.update(n & 1 ? b : key);
  let c: Buffer = a.digest();
  const dp = createHash(algo);
  for (let i = 0; i < key.length; i++) dp.update(key);
  const p = repeatTo(dp.digest(), key.length);
  const ds = createHash(algo);
  for (let i = 0; i < 16 + c[0]!; i++) ds.update(salt);
  const s = repeatTo(ds.digest(), salt.length);
  // The rounds dominate (656000 by default): one preallocated input, hashed in one call each.
  const buf = Buffer.alloc(size * 2 + s.length + p.length * 2);
  for (let i = 0; i < rounds; i++) {
    let n = (i & 1 ? p : c).copy(buf, 0);
    if (i % 3) n += s.copy(buf, n);
    if (i % 7) n += p.copy(buf, n);
    n += (i & 1 ? c : p).copy(buf, n);
    c = digestOnce(algo, buf.subarray(0, n));
  }
  return c.subarray(0, size);
}

function md5Crypt(key: Buffer, salt: Buffer): string {
  const alt = createHash('md5').update(key).update(salt).update(key).digest();
  const ctx = createHash('md5').update(key).update('$1$').update(salt).update(repeatTo(alt, key.length));
  for (let n = key.length; n > 0; n >>= 1) ctx.update(n & 1 ? Buffer.from([0]) : key.subarray(0, 1));
  let f = ctx.digest();
  for (let i = 0; i < 1000; i++) {
    const h = createHash('md5').update(i & 1 ? key : f);
    if (i % 3) h.update(salt);
    if (i % 7) h.update(key);
    f = h.update(i & 1 ? f : key).digest();
  }
  return `$1$${salt.toString('latin1')}$${encode(f, MD5_ORDER)}${b64From24(0, 0, f[11]!, 2)}`;
}

export interface CryptScheme {
  id: string;
  saltSize: number;
  /** The rounds Ansible asks for when none are given (BaseHash.algorithms' implicit_rounds). */
  defaultRounds?: number;
}

/** passlib's names, as Ansible maps the filter's short names onto them. */
export const CRYPT_SCHEMES: Record<string, CryptScheme> = {
  md5_crypt: { id: '1', saltSize: 8 },
  sha256_crypt: { id: '5', saltSize: 16, defaultRounds: 535000 },
  sha512_crypt: { id: '6', saltSize: 16, defaultRounds: 656000 },
};
export const SHORT_SCHEMES: Record<string, string> = { md5: 'md5_crypt', sha256: 'sha256_crypt', sha512: 'sha512_crypt', blowfish: 'bcrypt' };

/** passlib's hash(secret) for `scheme` with this salt and rounds (5000, crypt's implicit count, is left out of the text). */
export function cryptHash(secret: string, schemeName: string, salt: string, rounds?: number): string {
  const scheme = CRYPT_SCHEMES[schemeName];
  if (!scheme) {
    const known = Object.keys(CRYPT_SCHEMES).join(', ');
    throw new TemplateFailure(`hostwire cannot hash with '${schemeName}' (it has ${known}; bcrypt is not provided)`);
  }
  if (/[^./0-9A-Za-z]/.test(salt)) throw new TemplateFailure(`Could not hash the secret.. invalid characters in ${schemeName} salt`);
  if (salt.length > scheme.saltSize) throw new TemplateFailure(`Could not hash the secret.. salt too large (${schemeName} requires <= ${scheme.saltSize} chars)`);
  const key = Buffer.from(secret, 'utf8');
  if (scheme.id === '1') return md5Crypt(key, Buffer.from(salt, 'latin1'));
  const n = rounds ?? scheme.defaultRounds ?? 5000;
  if (!Number.isInteger(n) || n < 1000 || n > 999_999_999) throw new TemplateFailure(`Could not hash the secret.. rounds must be a whole number from 1000 to 999999999, got ${n}`);
  const algo = scheme.id === '6' ? 'sha512' : 'sha256';
  const digest = shaCrypt(algo, key, Buffer.from(salt, 'latin1'), n);
  const tail = algo === 'sha512' ? b64From24(0, 0, digest[63]!, 2) : b64From24(0, digest[31]!, digest[30]!, 3);
  const roundsText = n === 5000 ? '' : `rounds=${n}$`;
  return `$${scheme.id}$${roundsText}${salt}$${encode(digest, algo === 'sha512' ? SHA512_ORDER : SHA256_ORDER)}${tail}`;
}
