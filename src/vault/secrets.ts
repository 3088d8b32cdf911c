// Values known to be secret (decrypted from a vault, or named by hostwire_secret_vars) are masked
// wherever hostwire prints or writes: every renderer, --diff, -vvv, --json, errors, the HTML report.
export const MASK = '********';
import { setOwn } from '../own-keys.js';
/** Shorter values are not masked: hiding every "on" or "22" in the output would hide nothing useful. */
const MIN_LENGTH = 4;

const secrets = new Set<string>();
let ordered: string[] = [];

let generation = 0;

/** `whole`: a value derived from a secret (a template's output) is masked whole, not line by line,
 * so that a config file holding one secret does not mask its ordinary lines everywhere. */
export function addSecret(value: unknown, opts: { whole?: boolean } = {}): void {
  if (typeof value !== 'string' && typeof value !== 'number') return;
  const s = String(value);
  const parts = [s, s.trim()];
  // A multi-line secret (a key, a certificate) is also masked line by line: diffs split it.
  if (s.includes('\n') && !opts.whole) parts.push(...s.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length >= 8));
  let grew = false;
  for (const p of parts) {
    if (p.length < MIN_LENGTH || secrets.has(p)) continue;
    secrets.add(p);
    grew = true;
  }
  // Longest first, so a secret containing another is replaced whole.
  if (grew) {
    ordered = [...secrets].sort((a, b) => b.length - a.length);
    generation++;
  }
}

/** Every string/number leaf of a decrypted document is secret. */
export function addSecretsDeep(value: unknown, depth = 0, opts: { whole?: boolean } = {}): void {
  if (depth > 50) return;
  if (Array.isArray(value)) value.forEach((v) => addSecretsDeep(v, depth + 1, opts));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => addSecretsDeep(v, depth + 1, opts));
  else addSecret(value, opts);
}

/** Changes whenever a secret is added (lets callers cache "holds no secret" answers). */
export const secretsGeneration = () => generation;

/** Whether a string holds a known secret (or a number is one). */
export function holdsSecret(v: string | number): boolean {
  if (typeof v === 'number') return secrets.has(String(v));
  for (const s of ordered) if (v.includes(s)) return true;
  return false;
}

export const hasSecrets = () => ordered.length > 0;

export function clearSecrets(): void {
  secrets.clear();
  ordered = [];
  generation++;
}

export function maskText(text: string): string {
  if (!ordered.length || !text) return text;
  let out = text;
  for (const s of ordered) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

/** A copy of `value` with every secret replaced in every string (keys included). */
export function maskValue<T>(value: T, depth = 0): T {
  if (!ordered.length) return value;
  return mask(value, depth, new WeakMap()) as T;
}

function mask(v: unknown, depth: number, seen: WeakMap<object, unknown>): unknown {
  if (typeof v === 'string') return maskText(v);
  if (typeof v === 'number') return secrets.has(String(v)) ? MASK : v;
  if (!v || typeof v !== 'object' || depth > 60) return v;
  if (seen.has(v)) return seen.get(v);
  if (v instanceof Error) {
    const e = new Error(maskText(v.message));
    e.stack = v.stack === undefined ? undefined : maskText(v.stack);
    return e;
  }
  if (Array.isArray(v)) {
    const arr: unknown[] = [];
    seen.set(v, arr);
    for (const x of v) arr.push(mask(x, depth + 1, seen));
    return arr;
  }
  const out: Record<string, unknown> = {};
  seen.set(v, out);
  for (const [k, x] of Object.entries(v)) setOwn(out, maskText(k), mask(x, depth + 1, seen));
  return out;
}
