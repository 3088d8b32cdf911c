// The password lookup (lib/ansible/plugins/lookup/password.py): a password kept in a controller file,
// created on first use (folder 0700, file 0600, "PASSWORD[ salt=SALT]\n"), read back afterwards.
// `seed=` draws the characters with Python's random.Random(seed), so a seeded password is the one
// ansible-core generates; `encrypt=` returns the crypt hash and stores the salt for idempotence.
import { randomInt } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parseKeyValueArgs } from '../playbook/kv-args.js';
import { CRYPT_SCHEMES, cryptHash } from './filters/crypt.js';
import { randomSalt } from './filters/collections.js';
import { pyStr } from './py.js';
import { PyRandom } from './py-random.js';
import { TemplateFailure } from './undefined.js';

type Vars = Record<string, unknown>;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
/** Python's string module constants, the names `chars=` may use. */
const STRING_SETS: Record<string, string> = {
  ascii_letters: LOWER + UPPER, ascii_lowercase: LOWER, ascii_uppercase: UPPER, digits: DIGITS,
  hexdigits: `${DIGITS}abcdefABCDEF`, octdigits: '01234567', punctuation: PUNCT,
  whitespace: ' \t\n\r\x0b\x0c', printable: `${DIGITS}${LOWER}${UPPER}${PUNCT} \t\n\r\x0b\x0c`,
};
const VALID = new Set(['length', 'encrypt', 'chars', 'ident', 'seed']);

interface PasswordParams { path: string; length: number; encrypt?: string; chars: string[]; seed?: string }

/** `path key=value ...` (the lookup's own "hacky" parsing), keyword arguments as defaults. */
function parseTerm(term: string, kw: Vars): PasswordParams {
  const space = term.indexOf(' ');
  const path = space < 0 ? term : term.slice(0, space);
  let params: Vars = {};
  try {
    if (space >= 0) params = parseKeyValueArgs(term.slice(space + 1));
  } catch (e) {
    throw new TemplateFailure(`password lookup '${term}': ${(e as Error).message}`);
  }
  if ('_raw_params' in params) throw new TemplateFailure('Unrecognized value after key=value parameters given to password lookup');
  const invalid = Object.keys(params).filter((k) => !VALID.has(k));
  if (invalid.length) throw new TemplateFailure(`Unrecognized parameter(s) given to password lookup: ${invalid.join(', ')}`);
  const get = (k: string): unknown => params[k] ?? kw[k];
  const length = Number(get('length') ?? 20);
  if (!Number.isInteger(length) || length < 0) throw new TemplateFailure(`password lookup: length must be a whole number, got ${pyStr(get('length'))}`);
  let chars: unknown = get('chars') ?? ['ascii_letters', 'digits', '.,:-_'];
  if (typeof chars === 'string') {
    const list = chars.includes(',,') ? [','] : [];
    chars = [...list, ...chars.replace(',,', ',').split(',').filter(Boolean)];
  }
  const encrypt = get('encrypt');
  const seed = get('seed');
  return { path, length, chars: (chars as unknown[]).map(pyStr), encrypt: encrypt ? pyStr(encrypt) : undefined, seed: seed === undefined || seed === null ? undefined : pyStr(seed) };
}

function generate(p: PasswordParams): string {
  const pool = p.chars.map((c) => STRING_SETS[c] ?? c).join('').replace(/["']/g, '');
  if (!pool) throw new TemplateFailure('password lookup: chars= leaves no character to choose from');
  const rng = p.seed === undefined ? undefined : new PyRandom(p.seed);
  const chars = [...pool];
  return Array.from({ length: p.length }, () => (rng ? rng.choice(chars) : chars[randomInt(chars.length)])).join('');
}

/** Content "pw salt=S ident=I" -> parts (rindex, as _parse_content). */
function parseContent(content: string): { password: string; salt?: string } {
  const at = content.lastIndexOf(' salt=');
  if (at < 0) return { password: content };
  const rest = content.slice(at + 6);
  const ident = rest.lastIndexOf(' ident=');
  return { password: content.slice(0, at), salt: ident < 0 ? rest : rest.slice(0, ident) };
}

/** Written as a fresh 0600 temp renamed over, so no reader sees half a password. */
function writePrivate(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.hw-${process.pid}-${Date.now()}`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${content}\n`);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

function passwordFor(term: string, kw: Vars, vars: Vars): string {
  const p = parseTerm(term, kw);
  const base = typeof vars.playbook_dir === 'string' ? vars.playbook_dir : process.cwd();
  const path = isAbsolute(p.path) ? p.path : join(base, p.path);
  const devNull = path === '/dev/null';
  if (p.encrypt && !CRYPT_SCHEMES[p.encrypt]) cryptHash('', p.encrypt, '');
  let stored: { password: string; salt?: string } | undefined;
  if (!devNull && existsSync(path)) stored = parseContent(readFileSync(path, 'utf8').trimEnd());
  let changed = !stored;
  const password = stored?.password ?? generate(p);
  let salt = stored?.salt;
  if (p.encrypt && !salt) {
    salt = randomSalt(CRYPT_SCHEMES[p.encrypt]!.saltSize);
    changed = true;
  }
  if (changed && !devNull) writePrivate(path, p.encrypt || salt ? `${password} salt=${salt}` : password);
  return p.encrypt ? cryptHash(password, p.encrypt, salt!) : password;
}

export function passwordLookup(terms: unknown[], kw: Vars, vars: Vars): unknown[] {
  return terms.map((t) => passwordFor(pyStr(t), kw, vars));
}
