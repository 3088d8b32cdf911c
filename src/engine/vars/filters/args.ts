// Filter/test/global argument helpers. nunjucks passes Jinja keyword arguments (`map(attribute='x')`)
// as a trailing object flagged `__keywords`; Ansible filters take both positional and keyword forms.

import { pyTypeName } from '../py.js';
import { TemplateFailure } from '../undefined.js';

export type Fn = (this: unknown, value: any, ...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Args {
  pos: unknown[];
  kw: Record<string, unknown>;
}

export function splitArgs(args: unknown[]): Args {
  const last = args[args.length - 1];
  if (last && typeof last === 'object' && Object.prototype.hasOwnProperty.call(last, '__keywords')) {
    const { __keywords: _k, ...kw } = last as Record<string, unknown>;
    return { pos: args.slice(0, -1), kw };
  }
  return { pos: args, kw: {} };
}

/** The parameter at position `i` or named `name` (Python's calling convention), else `dflt`. */
export function arg<T>(a: Args, i: number, name: string, dflt: T): T {
  if (name in a.kw) return a.kw[name] as T;
  if (i < a.pos.length && a.pos[i] !== undefined) return a.pos[i] as T;
  return dflt;
}

/** Values a collection filter iterates: lists as-is, dict keys, string characters. */
export function iter(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (v && typeof v === 'object') return Object.keys(v);
  throw new TemplateFailure(`'${pyTypeName(v)}' object is not iterable`);
}
