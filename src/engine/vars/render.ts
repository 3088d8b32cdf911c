// The rendering entry points the runner calls. Internal failures become BadInputError prefixed by the
// task's file:line; the message names the undefined variable or the template problem, never a stack.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { compile, failureMessage, renderCaptured, renderCompiled, snippet } from './environment.js';
import { fromRenderedText, nodeText, singleNodeValue, singleVarName, singleVarShortcut } from './concat.js';
import { builtFromData, readingData } from './data-reads.js';
import { isPlainObject, pyStr, pyTruthy } from './py.js';
import { OMIT, TemplateFailure, assertDefinedDeep } from './undefined.js';
import { unsafeTextOf } from './unsafe.js';
import { withTaint } from './taint.js';
import { setOwn } from '../../own-keys.js';

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

/**
 * Internal: render one string to the value Ansible 2.14's Templar.template gives (see concat.ts: text,
 * read back as a list / dict / bool when it looks like one); throws TemplateFailure.
 */
export function renderOne(s: string, vars: object): unknown {
  if (!isTemplated(s)) return s;
  return located(s, () => withTaint(s, () => {
    const c = compile(s, 'value');
    const { value: v, keepText, float } = renderCaptured(c, vars, s);
    assertDefinedDeep(v);
    if (!c.native) return fromRenderedText(v as string);
    const name = singleVarName(s);
    const shortcut = name === undefined ? undefined : singleVarShortcut(vars, name);
    if (shortcut) return shortcut.value;
    return withTrailingSpace(v, { keepText, float }, s);
  }).value);
}

const countTrailingNewlines = (t: string): number => t.length - t.replace(/\n+$/, '').length;

/**
 * `{{ x }}` followed by whitespace (a YAML block scalar's newline), as Ansible renders it: Jinja drops
 * the template's last newline, so `{{ x }}\n` is one node and anything more is text after it; then
 * Templar adds back the newlines the source ends with that a text result lacks
 * (preserve_trailing_newlines).
 */
function withTrailingSpace(v: unknown, how: { keepText: boolean; float: boolean }, src: string): unknown {
  const tail = /\s*$/.exec(src)![0];
  const after = tail.endsWith('\n') ? tail.slice(0, -1) : tail;
  const out = after === '' ? singleNodeValue(v, how.keepText, how.float) : fromRenderedText(nodeText(v, how.float) + after);
  if (typeof out !== 'string') return out;
  const missing = countTrailingNewlines(src) - countTrailingNewlines(out);
  return missing > 0 ? out + '\n'.repeat(missing) : out;
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
      if (r !== OMIT) setOwn(out, k, r);
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

/** A bare expression as a value (debug's `var`: Ansible templates "{{ expr }}", so it is typed as one). */
export function evalExpressionValue(expr: string, vars: Vars, where?: SourceLoc): unknown {
  const src = expr.trim();
  return guarded(src, where, () => (isTemplated(src) ? renderOne(src, vars) : located(src, () => renderOne(`{{ ${src} }}`, vars))));
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
  if (!isTemplated(s)) return pyTruthy(evalOne(s, vars));
  return evalTemplatedCond(s, vars);
}

/** One `{{ }}` and nothing around it. */
const WHOLE_EXPRESSION = /^\{\{(?:(?!\{\{)[\s\S])*\}\}$/;

/**
 * Ansible's _check_conditional for a condition holding `{{ }}` (it warns, then evaluates): the first
 * render's value decides when it is not text ("{{ flag }}"); text is evaluated as a condition again
 * ("{{ x }} == 1" is "2 == 1": false). Text holding a string from data is never evaluated: a whole
 * `{{ expr }}` over data counts by its truth, anything else is refused (Ansible: "Conditional is marked
 * as unsafe"); a host's rc or an inert word like a host name n1 is spliced as Ansible splices it.
 */
function evalTemplatedCond(s: string, vars: Vars): boolean {
  const { value, data } = readingData(() => renderOne(s, vars));
  if (typeof value !== 'string' || value === '') return pyTruthy(value);
  const word = WORD_BOOLS[value.trim().toLowerCase()];
  if (word !== undefined) return word;
  if (builtFromData(value, data)) {
    if (WHOLE_EXPRESSION.test(s)) return pyTruthy(value);
    throw new TemplateFailure(
      `the conditional '${snippet(s)}' builds an expression from data (a registered result, a fact, a loop item, a host name or a lookup): hostwire does not evaluate data as an expression (Ansible: "Conditional is marked as unsafe"); write the condition without {{ }}, e.g. r.stdout == '1'`,
      true,
    );
  }
  return pyTruthy(evalOne(value, vars));
}

export function evalCondition(cond: string | boolean | (string | boolean)[], vars: Vars, where?: SourceLoc): boolean {
  const list = Array.isArray(cond) ? cond : [cond];
  for (const c of list) {
    if (!guarded(typeof c === 'string' ? c : pyStr(c), where, () => evalCond(c, vars))) return false;
  }
  return true;
}
