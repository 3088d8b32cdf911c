// Keywords hostwire reads but only partly implements: what it cannot do is refused at load with the
// keyword's file:line (an accepted keyword must act; issue 16). Ansible's Playbook Keywords reference
// is the authority for what each one means.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { describe, keyLoc } from './keyword-types.js';

const isTemplate = (v: unknown) => typeof v === 'string' && /{{|{%/.test(v);

// `debugger: never` is what hostwire does anyway (it has no task debugger); the others would stop to debug.
const DEBUGGER_VALUES = ['always', 'never', 'on_failed', 'on_unreachable', 'on_skipped'];

/** Refuses, at load, a keyword on a play, role entry, block or task that hostwire would silently not honour. */
export function checkKeywordSupport(obj: Record<string, unknown>, fallback: SourceLoc): void {
  const method = obj.become_method;
  if (method !== undefined && method !== null && method !== 'sudo') {
    throw new BadInputError(`become_method: ${JSON.stringify(method)} is not supported: hostwire becomes another user with sudo only (expected sudo)`, keyLoc(obj, 'become_method', fallback));
  }
  const debuggerValue = obj.debugger;
  if (debuggerValue !== undefined && debuggerValue !== null && debuggerValue !== 'never') {
    const why = DEBUGGER_VALUES.includes(String(debuggerValue)) ? 'hostwire has no task debugger' : `expected one of ${DEBUGGER_VALUES.join(', ')}`;
    throw new BadInputError(`debugger: ${JSON.stringify(debuggerValue)} is not supported (${why}); only 'never' is accepted`, keyLoc(obj, 'debugger', fallback));
  }
  collectionsKeyword(obj, fallback);
}

/** `collections:` only steers Ansible's short-name lookup; hostwire resolves names itself, so a list of names is accepted. */
function collectionsKeyword(obj: Record<string, unknown>, fallback: SourceLoc): void {
  const v = obj.collections;
  if (v === undefined || v === null) return;
  const names = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || !/^[A-Za-z_]\w*\.[A-Za-z_]\w*$/.test(n))) {
    throw new BadInputError(`'collections' must be a list of collection names (namespace.name), got ${describe(v)}`, keyLoc(obj, 'collections', fallback));
  }
}

/** `diff:` as written: a literal boolean (a template is refused, not guessed). */
export function diffKeyword(obj: Record<string, unknown>, fallback: SourceLoc): boolean | undefined {
  const v = obj.diff;
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  const loc = keyLoc(obj, 'diff', fallback);
  if (isTemplate(v)) throw new BadInputError(`'diff' written as a template is not supported; expected true or false`, loc);
  const w = typeof v === 'string' ? v.toLowerCase() : v;
  if (['yes', 'true', 'on', 'y', 't', '1', 1].includes(w as string)) return true;
  if (['no', 'false', 'off', 'n', 'f', '0', 0].includes(w as string)) return false;
  throw new BadInputError(`'diff' must be a boolean (true/false), got ${JSON.stringify(v)}`, loc);
}

/** `throttle:` the most hosts that run the task at once (0: no limit beyond forks), a whole number or a template (rendered per run). */
export function throttleKeyword(obj: Record<string, unknown>, fallback: SourceLoc): number | string | undefined {
  const v = obj.throttle;
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && isTemplate(v)) return v;
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n;
  throw new BadInputError(`'throttle' must be a whole number of hosts (0 for no limit), got ${JSON.stringify(v)}`, keyLoc(obj, 'throttle', fallback));
}
