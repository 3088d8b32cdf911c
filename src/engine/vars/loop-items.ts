// A task's loop items, as TaskExecutor._get_loop_items (ansible-core 2.14) computes them. `loop:` renders
// to a list. `with_X: terms` is `lookup('X', terms, wantlist=True)`: the terms are templated
// (listify_lookup_plugin_terms: a string is rendered, stripped, and a string or scalar result becomes
// a list of one; bare variable names are not resolved), then the lookup runs with the subdir the action
// implies (templates/, vars/, else files/). For first_found, a term with an undefined variable is
// dropped instead of failing.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { LOOKUPS } from './lookups.js';
import { isPlainObject, pyStr } from './py.js';
import { guarded, renderDeep, type Vars } from './render.js';
import { TemplateFailure } from './undefined.js';

export interface LoopSpec {
  loop?: unknown;
  /** The lookup behind a with_X loop ('items', 'dict', ...). */
  loopWith?: string;
  module: string;
  loc?: SourceLoc;
}

/** with_<name> keys name lookups; FQCN forms of the ones hostwire has are the same lookups. */
const LOOKUP_ALIASES: Record<string, string> = {
  'community.general.flattened': 'flattened',
  'community.general.cartesian': 'cartesian',
};

/** The lookup a `with_X` key names, or undefined when hostwire has none by that name. */
export function loopLookupName(withKey: string): string | undefined {
  const raw = withKey.slice('with_'.length);
  const name = LOOKUP_ALIASES[raw] ?? raw.replace(/^ansible\.(builtin|legacy)\./, '');
  return Object.prototype.hasOwnProperty.call(LOOKUPS, name) ? name : undefined;
}

export function knownLoopLookups(): string[] {
  return Object.keys(LOOKUPS).sort();
}

const LISTS_ONLY = new Set(['list', 'indexed_items', 'flattened']);

function listifyTerms(rendered: unknown, name: string): unknown[] {
  if (Array.isArray(rendered)) return rendered;
  if (isPlainObject(rendered)) {
    // A dict stays a dict in Ansible (it is iterable): with_dict takes it whole, list lookups refuse it,
    // the others iterate its keys.
    if (name === 'dict') return [rendered];
    if (LISTS_ONLY.has(name)) throw new TemplateFailure(`with_${name} expects a list`);
    return Object.keys(rendered);
  }
  return [rendered];
}

function renderTerms(spec: LoopSpec, vars: Vars): unknown[] {
  const name = spec.loopWith!;
  const raw = typeof spec.loop === 'string' ? spec.loop.trim() : spec.loop;
  if (name !== 'first_found') return listifyTerms(renderDeep(raw, vars), name);
  // Each term on its own: one with an undefined variable is dropped (a dict holding one too, as is_template).
  const terms = Array.isArray(raw) ? raw : [raw];
  return terms.flatMap((t) => {
    try {
      const r = renderDeep(t, vars);
      return Array.isArray(raw) ? [r] : listifyTerms(r, name);
    } catch (e) {
      if (e instanceof TemplateFailure && e.undefinedVariable) return [];
      throw e;
    }
  });
}

function subdirFor(module: string): string {
  for (const s of ['template', 'var', 'file']) if (module.includes(s)) return `${s}s`;
  return 'files';
}

/** The items of a task's loop for these variables; errors name the task's file:line (and the lookup). */
export function loopItems(spec: LoopSpec, vars: Vars): unknown[] {
  if (spec.loopWith === undefined) {
    const items = guarded('', spec.loc, () => renderDeep(spec.loop, vars));
    if (!Array.isArray(items)) {
      // Ansible formats it with %s: the text a template gave is shown as it is.
      throw new BadInputError(`Invalid data passed to 'loop', it requires a list, got this instead: ${pyStr(items)}. Hint: If you passed a list/dict of just one element, try adding wantlist=True to your lookup invocation or use q/query instead of lookup.`, spec.loc);
    }
    return items;
  }
  try {
    const terms = renderTerms(spec, vars);
    return LOOKUPS[spec.loopWith]!(terms, { _subdir: subdirFor(spec.module), wantlist: true }, vars);
  } catch (e) {
    if (e instanceof TemplateFailure) throw new BadInputError(e.formatted || e.message.startsWith(`with_${spec.loopWith}`) ? e.message : `with_${spec.loopWith}: ${e.message}`, spec.loc, e);
    throw e;
  }
}

/** Lookups with effects beyond reading (a command, a stored password, a random pick): not run ahead of their task. */
const EFFECTFUL = new Set(['pipe', 'lines', 'password', 'random_choice']);

/** The items for reading ahead, or undefined when computing them early would run a command or write a file. */
export function loopItemsAhead(spec: LoopSpec, vars: Vars): unknown[] | undefined {
  if (spec.loopWith !== undefined && EFFECTFUL.has(spec.loopWith)) return undefined;
  return loopItems(spec, vars);
}
