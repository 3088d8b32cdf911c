// Secret taint. A template that reads a secret (a vault value, a hostwire_secret_vars value, or a value
// already derived from one) produces secret output: `vault_pw | upper`, `| b64encode`, `[0:8]` or a
// concatenation are registered as secrets too, so every output masks them (see vault/secrets.ts), and
// a failure while rendering such a template shows no detail of the value (a from_json error quotes it).
// The runner also asks whether a task's args read a secret: that task's diff is hidden, since the
// old value it would show (read from the host) is not known to be secret.
// Rendering is synchronous: one frame per template being rendered, nested frames taint their parent.
import { addSecretsDeep, hasSecrets, holdsSecret, secretsGeneration } from '../../vault/secrets.js';
import { TemplateFailure } from './undefined.js';

interface Frame {
  secret: boolean;
}

let current: Frame | undefined;
const MAX_NODES = 5000;
/** Objects known to hold no secret, per secrets generation (facts and results are read many times). */
let clean = new WeakSet<object>();
let cleanGeneration = -1;

function holds(v: unknown, budget: { n: number }, depth: number): boolean {
  if (typeof v === 'string' || typeof v === 'number') return holdsSecret(v);
  if (v === null || typeof v !== 'object' || depth > 40 || --budget.n < 0 || clean.has(v)) return false;
  // Own data properties only: a getter (hostvars) would compute every host's vars.
  const values = Array.isArray(v) ? v : Object.values(Object.getOwnPropertyDescriptors(v)).flatMap((d) => ('value' in d ? [d.value as unknown] : []));
  for (const x of values) if (holds(x, budget, depth + 1)) return true;
  if (budget.n >= 0) clean.add(v);
  return false;
}

/** Whether `v` holds a known secret anywhere (bounded walk). */
export function holdsSecretDeep(v: unknown): boolean {
  if (!hasSecrets()) return false;
  if (cleanGeneration !== secretsGeneration()) {
    clean = new WeakSet();
    cleanGeneration = secretsGeneration();
  }
  return holds(v, { n: MAX_NODES }, 0);
}

/** A variable or attribute a template reads: a string or number that holds a secret taints the
 * render. Containers only taint when a filter consumes them (`r | to_json`), not when a template
 * walks through them (`r.rc` of a result whose stdout holds a secret is not secret). */
export function noteLeafRead(v: unknown): void {
  if (current && !current.secret && (typeof v === 'string' || typeof v === 'number') && hasSecrets() && holdsSecret(v)) current.secret = true;
}

/** A value a filter consumes (its input and arguments), searched whole. */
export function noteFilterInput(args: unknown[]): void {
  if (current && !current.secret && args.some((a) => holdsSecretDeep(a))) current.secret = true;
}

export class SecretTemplateFailure extends TemplateFailure {}

/**
 * Runs one render in its own frame. Output derived from a secret becomes a secret itself; a failure
 * after a secret was read loses its details (`src` is the user's template text, safe to show).
 */
export function withTaint<T>(src: string, fn: () => T, registerOutput = true): { value: T; secret: boolean } {
  const outer = current;
  const frame: Frame = { secret: false };
  current = frame;
  try {
    const value = fn();
    if (frame.secret && registerOutput) addSecretsDeep(value, 0, { whole: true });
    return { value, secret: frame.secret };
  } catch (e) {
    if (frame.secret && e instanceof TemplateFailure && !(e instanceof SecretTemplateFailure)) {
      const what = src.replace(/\s+/g, ' ').trim().slice(0, 100);
      throw new SecretTemplateFailure(`template error: the template reads a secret, so its error is not shown (${e.name === 'UndefinedError' ? 'undefined value' : 'failed'}) in '${what}'`, true);
    }
    throw e;
  } finally {
    current = outer;
    if (outer && frame.secret) outer.secret = true;
  }
}

/** `fn`'s value and whether any template it rendered read a secret (the runner asks for task args;
 * each template's own output was registered already, the args as a whole are not). */
export function readsSecret<T>(fn: () => T): { value: T; secret: boolean } {
  return withTaint('', fn, false);
}
