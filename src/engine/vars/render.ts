// The rendering entry points the runner calls. Internal failures become BadInputError prefixed by the
// task's file:line; the message names the undefined variable or the template problem, never a stack.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { compile, failureMessage, renderCompiled } from './environment.js';
import { isPlainObject, pyStr, pyTruthy } from './py.js';
import { OMIT, TemplateFailure, assertDefinedDeep } from './undefined.js';
import { unsafeTextOf } from './unsafe.js';
import { withTaint } from './taint.js';

export type Vars = Record<string, unknown>;

const TEMPLATE_RE = /\{\{|\{%|\{#/;

/** True if the string contains template syntax. */
export function isTemplated(s: string): boolean {
  return TEMPLATE_RE.test(s);
}

/** Run `fn`; a TemplateFailure becomes a BadInputError at `where`. */
export function guarded<T>(src: string, where: SourceLoc | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TemplateFailure) throw new BadInputError(failureMessage(e, src), where, e);
    throw e;
  }
}

/** Run `fn` for template `src`; a failure's message gets the template's text (once, innermost wins). */
export function located<T>(src: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TemplateFailure && !e.formatted) throw new TemplateFailure(failureMessage(e, src), true, e.undefinedVariable);
    throw e;
  }
}

/** Internal: render one string, native when it is a single expression; throws TemplateFailure. */
export function renderOne(s: string, vars: object): unknown {
  if (!isTemplated(s)) return s;
  return located(s, () => withTaint(s, () => {
    const v = renderCompiled(compile(s, 'value'), vars, s);
    assertDefinedDeep(v);
    return v;
  }).value);
}

/** Internal: deep render; dict keys whose value became `omit` are dropped (list items too). */
export function renderDeep(value: unknown, vars: object): unknown {
  if (typeof value === 'string') return renderOne(value, vars);
  const unsafe = unsafeTextOf(value);
  if (unsafe !== undefined) return unsafe;
  if (Array.isArray(value)) return value.map((x) => renderDeep(x, vars)).filter((x) => x !== OMIT);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = renderDeep(v, vars);
      if (r !== OMIT) out[k] = r;
    }
    return out;
  }
  return value;
}

export function renderValue(value: unknown, vars: Vars, where?: SourceLoc): unknown {
  return guarded('', where, () => renderDeep(value, vars));
}

export function renderString(template: string, vars: Vars, where?: SourceLoc): string {
  if (!isTemplated(template)) return template;
  return guarded(template, where, () => located(template, () => withTaint(template, () => String(renderCompiled(compile(template, 'text'), vars, template))).value));
}

/** Internal: evaluate a bare expression (or a whole "{{ expr }}") to its value. */
export function evalOne(expr: string, vars: object): unknown {
  const src = expr.trim();
  if (isTemplated(src)) return renderOne(src, vars);
  return located(src, () => withTaint(src, () => {
    const v = renderCompiled(compile(src, 'expr'), vars, src);
    assertDefinedDeep(v);
    return v;
  }).value);
}

export function evalExpression(expr: string, vars: Vars, where?: SourceLoc): unknown {
  return guarded(expr, where, () => evalOne(expr, vars));
}

const WORD_BOOLS: Record<string, boolean> = {
  yes: true, no: false, true: true, false: false, on: true, off: false,
};

function evalCond(cond: string | boolean, vars: Vars): boolean {
  if (typeof cond === 'boolean') return cond;
  const s = String(cond).trim();
  if (s === '') return true;
  const word = WORD_BOOLS[s.toLowerCase()];
  if (word !== undefined) return word;
  const v = evalOne(s, vars);
  // A "{{ }}"-wrapped condition may render to the text True/False (mixed templates): read it as a word.
  if (typeof v === 'string' && isTemplated(s)) return WORD_BOOLS[v.trim().toLowerCase()] ?? pyTruthy(v);
  return pyTruthy(v);
}

export function evalCondition(cond: string | boolean | (string | boolean)[], vars: Vars, where?: SourceLoc): boolean {
  const list = Array.isArray(cond) ? cond : [cond];
  for (const c of list) {
    if (!guarded(typeof c === 'string' ? c : pyStr(c), where, () => evalCond(c, vars))) return false;
  }
  return true;
}
