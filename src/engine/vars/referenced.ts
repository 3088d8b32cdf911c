// Which top-level variables a task's args reference, read from the nunjucks AST (best-effort): the
// runner uses it to tell whether args can be rendered before earlier tasks ran (register, set_fact).
// Names bound inside the template (for/set/macro), filter and test names, keyword-argument names and
// globals (range, lookup, omit, True...) are not variables.
import { env, parseTemplate } from './environment.js';
import type { NjNode } from './nj.js';
import { isPlainObject } from './py.js';
import { isTemplated } from './render.js';

const cache = new Map<string, string[]>();
const BUILTIN = new Set(['loop', 'varargs', 'kwargs', 'caller', 'true', 'false', 'none']);

function isNode(v: unknown): v is NjNode {
  return v !== null && typeof v === 'object' && typeof (v as NjNode).typename === 'string';
}

function children(n: NjNode): NjNode[] {
  const out: NjNode[] = [];
  for (const f of n.fields) {
    const v = n[f] as unknown;
    if (isNode(v)) out.push(v);
    else if (Array.isArray(v)) out.push(...v.filter(isNode));
  }
  return out;
}

/** Names the template binds itself (for targets, set targets, macro names and arguments). */
function bound(n: NjNode, out: Set<string>): void {
  if (n.typename === 'For' || n.typename === 'Set' || n.typename === 'Macro') {
    const targets = n.typename === 'For' ? [n.name as NjNode] : n.typename === 'Set' ? (n.targets as NjNode[]) : [n.name as NjNode];
    for (const t of targets) for (const s of t.typename === 'Array' ? (t.children as NjNode[]) : [t]) out.add(String(s.value));
    if (n.typename === 'Macro') for (const a of children(n.args as NjNode)) if (a.typename === 'Symbol') out.add(String(a.value));
  }
  for (const c of children(n)) bound(c, out);
}

function collect(n: NjNode, out: Set<string>): void {
  switch (n.typename) {
    case 'Symbol':
      out.add(String(n.value));
      return;
    case 'Filter':
      collect(n.args as NjNode, out);
      return;
    case 'Is':
      collect(n.left as NjNode, out);
      if ((n.right as NjNode).typename === 'FunCall') collect((n.right as NjNode).args as NjNode, out);
      return;
    case 'FunCall':
      if ((n.name as NjNode).typename !== 'Symbol') collect(n.name as NjNode, out);
      collect(n.args as NjNode, out);
      return;
    case 'LookupVal':
      collect(n.target as NjNode, out);
      if ((n.val as NjNode).typename !== 'Literal') collect(n.val as NjNode, out);
      return;
    case 'Pair':
      if ((n.key as NjNode).typename !== 'Symbol') collect(n.key as NjNode, out);
      collect(n.value as NjNode, out);
      return;
    default:
      for (const c of children(n)) collect(c, out);
  }
}

function namesIn(src: string): string[] {
  const hit = cache.get(src);
  if (hit) return hit;
  let names: string[] = [];
  try {
    const ast = parseTemplate(src);
    const local = new Set<string>();
    bound(ast, local);
    const found = new Set<string>();
    collect(ast, found);
    const globals = (env as unknown as { globals: Record<string, unknown> }).globals;
    names = [...found].filter((n) => !local.has(n) && !BUILTIN.has(n) && !(n in globals));
  } catch {
    names = []; // a syntax error is reported when the value is rendered
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(src, names);
  return names;
}

/** Top-level variable names referenced by templates inside `value` (deep). With bareExpressions, plain
 *  strings are read as expressions too (when/until/failed_when conditions). */
export function referencedVars(value: unknown, opts: { bareExpressions?: boolean } = {}): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (isTemplated(v)) for (const n of namesIn(v)) out.add(n);
      else if (opts.bareExpressions && v.trim() !== '') for (const n of namesIn(`{{ ${v} }}`)) out.add(n);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (isPlainObject(v)) Object.values(v).forEach(walk);
  };
  walk(value);
  return out;
}
