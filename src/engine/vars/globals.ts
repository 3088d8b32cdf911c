// Jinja globals Ansible users call: range, dict, namespace, lookup/query (plugins in lookups.ts), omit,
// and the Python literals True/False/None (nunjucks only knows true/false/none).
import { splitArgs } from './filters/args.js';
import { LOOKUPS } from './lookups.js';
import { noteDataRead } from './data-reads.js';
import { pyStr } from './py.js';
import { VARS_KEY } from './runtime-patch.js';
import { OMIT, TemplateFailure } from './undefined.js';
import { namespace } from './syntax-compile.js';
import { assignOwn, setOwn } from '../../own-keys.js';

type Ctx = { ctx?: Record<string, unknown> };

function varsOf(ctx: unknown): Record<string, unknown> {
  return ((ctx as Ctx).ctx?.[VARS_KEY] as Record<string, unknown> | undefined) ?? {};
}

function runLookup(ctx: unknown, plugin: unknown, terms: unknown[], kw: Record<string, unknown>): unknown[] {
  const name = String(plugin).replace(/^ansible\.builtin\./, '');
  const impl = LOOKUPS[name];
  if (!impl) throw new TemplateFailure(`lookup plugin '${name}' is not supported (hostwire has ${Object.keys(LOOKUPS).join(', ')})`);
  const out = impl(terms, kw, varsOf(ctx));
  // What a lookup returns is data (Ansible wraps it unsafe).
  noteDataRead(out);
  return out;
}

function lookup(this: unknown, plugin: unknown, ...rest: unknown[]): unknown {
  const { pos, kw } = splitArgs(rest);
  const out = runLookup(this, plugin, pos, kw);
  if (kw.wantlist) return out;
  // Ansible joins a list of strings with ','; a list holding anything else stays a list (one item: the item).
  if (out.every((x) => typeof x === 'string')) return out.join(',');
  return out.length === 1 ? out[0] : out;
}

function query(this: unknown, plugin: unknown, ...rest: unknown[]): unknown[] {
  const { pos, kw } = splitArgs(rest);
  return runLookup(this, plugin, pos, kw);
}

/** dict(a=1), dict(list_of_pairs), dict(other_dict, b=2). */
function dict(...args: unknown[]): Record<string, unknown> {
  const { pos, kw } = splitArgs(args);
  const out: Record<string, unknown> = {};
  for (const p of pos) {
    if (Array.isArray(p)) for (const pair of p) setOwn(out, pyStr((pair as unknown[])[0]), (pair as unknown[])[1]);
    else if (p && typeof p === 'object') assignOwn(out, p);
  }
  return assignOwn(out, kw);
}

export const globals: Record<string, unknown> = {
  True: true,
  False: false,
  None: null,
  omit: OMIT,
  dict,
  namespace,
  lookup,
  query,
  q: query,
};
