// Jinja globals Ansible users call: range, dict, lookup/query (only the env and file plugins), omit,
// and the Python literals True/False/None (nunjucks only knows true/false/none).
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { splitArgs } from './filters/args.js';
import { pyStr } from './py.js';
import { VARS_KEY } from './runtime-patch.js';
import { OMIT, TemplateFailure } from './undefined.js';
import { namespace } from './syntax-compile.js';

type Ctx = { ctx?: Record<string, unknown> };

function varsOf(ctx: unknown): Record<string, unknown> {
  return ((ctx as Ctx).ctx?.[VARS_KEY] as Record<string, unknown> | undefined) ?? {};
}

/** Relative paths are looked up like Ansible: the role's files/, the role, the playbook dir, cwd. */
function findFile(name: string, vars: Record<string, unknown>): string {
  if (isAbsolute(name)) return name;
  const dirs: string[] = [];
  for (const key of ['role_path', 'playbook_dir']) {
    const d = vars[key];
    if (typeof d === 'string') dirs.push(join(d, 'files'), d);
  }
  dirs.push(process.cwd());
  return dirs.map((d) => join(d, name)).find((p) => existsSync(p)) ?? name;
}

function runLookup(ctx: unknown, plugin: unknown, terms: unknown[], kw: Record<string, unknown>): unknown[] {
  const name = String(plugin).replace(/^ansible\.builtin\./, '');
  if (name === 'env') {
    return terms.map((t) => process.env[pyStr(t)] ?? (kw.default === undefined ? '' : kw.default));
  }
  if (name === 'file') {
    return terms.map((t) => {
      const path = findFile(pyStr(t), varsOf(ctx));
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        throw new TemplateFailure(`could not locate file in lookup: ${pyStr(t)}`);
      }
      if (kw.rstrip !== false) text = text.replace(/\s+$/, '');
      if (kw.lstrip === true) text = text.replace(/^\s+/, '');
      return text;
    });
  }
  throw new TemplateFailure(`lookup plugin '${name}' is not supported (hostwire supports env and file)`);
}

function lookup(this: unknown, plugin: unknown, ...rest: unknown[]): unknown {
  const { pos, kw } = splitArgs(rest);
  const out = runLookup(this, plugin, pos, kw);
  if (kw.wantlist) return out;
  return out.length === 1 ? out[0] : out.map(pyStr).join(',');
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
    if (Array.isArray(p)) for (const pair of p) out[pyStr((pair as unknown[])[0])] = (pair as unknown[])[1];
    else if (p && typeof p === 'object') Object.assign(out, p);
  }
  return Object.assign(out, kw);
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
