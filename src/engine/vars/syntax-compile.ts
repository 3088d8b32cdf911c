// Code generation and runtime helpers for the syntax syntax-patch parses: `*args`/`**kwargs`, `{% do %}`,
// dict keys that are expressions (Jinja evaluates `{ k: 1 }` with the variable k), and
// `{% set ns.attr = v %}` on a namespace() object.
import { nj, type NjNode } from './nj.js';
import { isPlainObject, pyStr, pyTypeName } from './py.js';
import { TemplateFailure, Undef, UndefinedError } from './undefined.js';
import { assignOwn, setOwn } from '../../own-keys.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const C = nj.compiler.Compiler.prototype as Record<string, any>;
const origCompileSet = C.compileSet as (this: any, node: NjNode, frame: unknown) => void;

const namespaces = new WeakSet<object>();

/** Jinja's namespace(): the one object a `{% set %}` inside a loop can change for the outer scope. */
export function namespace(...args: unknown[]): Record<string, unknown> {
  const ns: Record<string, unknown> = {};
  for (const a of args) {
    if (a && typeof a === 'object' && !Array.isArray(a)) {
      const { __keywords: _k, ...rest } = a as Record<string, unknown>;
      assignOwn(ns, rest);
    }
  }
  namespaces.add(ns);
  return ns;
}

function defined<T>(v: T): T {
  if (v instanceof Undef) throw new UndefinedError(v);
  return v;
}

Object.assign(nj.runtime, {
  hwSplat: (v: unknown) => {
    defined(v);
    if (Array.isArray(v)) return v;
    if (typeof v === 'string') return [...v];
    if (isPlainObject(v)) return Object.keys(v);
    throw new TemplateFailure(`Value after * must be an iterable, not ${pyTypeName(v)}`);
  },
  hwKwSplat: (v: unknown) => {
    if (!isPlainObject(defined(v))) throw new TemplateFailure(`Value after ** must be a mapping, not ${pyTypeName(v)}`);
    return v;
  },
  hwDictKey: (k: unknown) => pyStr(defined(k)),
  hwDiscard: (v: unknown) => {
    defined(v);
    return '';
  },
  hwNsSet: (ns: unknown, key: string, value: unknown) => {
    if (!(ns && typeof ns === 'object' && namespaces.has(ns))) throw new TemplateFailure('cannot assign attribute on non-namespace object');
    setOwn(ns as object, key, value);
  },
});

Object.assign(C, {
  compileHwSplat(this: any, node: NjNode, frame: unknown) {
    this._emit(node.kw ? '...runtime.hwKwSplat(' : '...runtime.hwSplat(');
    this._compileExpression(node.target, frame);
    this._emit(')');
  },
  compileHwDiscard(this: any, node: NjNode, frame: unknown) {
    this._emit('runtime.hwDiscard(');
    this._compileExpression(node.name, frame);
    this._emit(')');
  },
  compilePair(this: any, node: NjNode, frame: unknown) {
    const key = node.key as NjNode;
    // Keyword arguments (`f(a=1)`) are Pairs with a Symbol key naming the parameter.
    // Keys are emitted computed (`["k"]: v`): a literal `"__proto__": v` would set the dict's prototype.
    if (key.typename === 'Literal' && typeof key.value === 'string') {
      this._emit('[');
      this.compile(key, frame);
      this._emit(']');
    } else if (key.typename === 'Symbol' && this.hwKeywordPairs) this._emit(`[${JSON.stringify(key.value)}]`);
    else {
      this._emit('[runtime.hwDictKey(');
      this._compileExpression(key, frame);
      this._emit(')]');
    }
    this._emit(': ');
    this._compileExpression(node.value, frame);
  },
  compileKeywordArgs(this: any, node: NjNode, frame: unknown) {
    const outer = this.hwKeywordPairs;
    this.hwKeywordPairs = true;
    this._emit('runtime.makeKeywordArgs(');
    this._compileAggregate(node, frame, '{', '}');
    this._emit(')');
    this.hwKeywordPairs = outer;
  },
  compileDict(this: any, node: NjNode, frame: unknown) {
    const outer = this.hwKeywordPairs;
    this.hwKeywordPairs = false;
    this._compileAggregate(node, frame, '{', '}');
    this.hwKeywordPairs = outer;
  },
  compileSet(this: any, node: NjNode, frame: unknown) {
    const targets = node.targets as NjNode[];
    if (!targets.some((t) => t.typename === 'LookupVal')) return origCompileSet.call(this, node, frame);
    const target = targets[0]!;
    const attr = target.val as NjNode;
    if (targets.length !== 1 || attr.typename !== 'Literal') this.fail('can only assign to a name or a namespace attribute', target.lineno, target.colno);
    this._emit('runtime.hwNsSet(');
    this._compileExpression(target.target, frame);
    this._emit(`, ${JSON.stringify(String(attr.value))}, `);
    if (node.value) this._compileExpression(node.value, frame);
    else this.compile(node.body, frame);
    this._emitLine(');');
  },
});
