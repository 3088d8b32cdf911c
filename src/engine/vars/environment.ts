// The one shared nunjucks Environment (configured like Ansible's template module) and the compile cache:
// the runner renders the same task args for hundreds of hosts, so each distinct template string is
// parsed and compiled once. A template that is exactly one `{{ expr }}` is compiled to capture the
// expression's native value instead of its text.
import nunjucks from 'nunjucks';
import './compiler-patch.js';
import './float-literals.js';
import { withBlockEscapes } from './lexer-patch.js';
import { nj, transformer, type NjNode } from './nj.js';
import { VARS_KEY } from './runtime-patch.js';
import { TemplateFailure } from './undefined.js';
import { registerAll } from './register.js';
import { lendTemplateRenderer } from './lookup-template.js';
import { STRING_TYPE_FILTERS } from './concat.js';
import { floatWitnesses, kindOf } from './float-kinds.js';
import { addFloatTextGlobals, callGlobal as callGlobalWith, withFloatText } from './float-text.js';

/** Ansible: trim_blocks=True, lstrip_blocks=False; we never HTML-escape. `dev` keeps error causes. */
export const env = new nunjucks.Environment(null, {
  autoescape: false,
  throwOnUndefined: true,
  trimBlocks: true,
  lstripBlocks: false,
  dev: true,
} as nunjucks.ConfigureOptions);
registerAll(env);
addFloatTextGlobals(env);
// lookup('template') renders with this environment; lent so that the lookups need not import it back.
lendTemplateRenderer((text, scope) => renderCompiled(compile(text, 'text'), scope, text));

const OUT_KEY = '__hw_out';
const CAPTURE = '__hw_capture';
const KEEP_TEXT = '__hw_keep_text';
const MARK_FLOAT = '__hw_float';
const MARK_FLOAT_IF = '__hw_float_if';
interface Holder {
  value: unknown;
  keepText: boolean;
  /** The value is a Python float (`| float`, `/`, `2.0`, float-kinds.ts): 2 prints as "2.0". */
  float: boolean;
}
env.addGlobal(CAPTURE, function (this: { ctx: Record<string, Holder> }, v: unknown) {
  this.ctx[OUT_KEY]!.value = v;
  return '';
});
// Ansible's NativeJinjaText: the value a STRING_TYPE_FILTERS filter returned stays text (see concat.ts).
env.addGlobal(KEEP_TEXT, function (this: { ctx: Record<string, Holder> }, v: unknown) {
  this.ctx[OUT_KEY]!.keepText = true;
  return v;
});
env.addGlobal(MARK_FLOAT, function (this: { ctx: Record<string, Holder> }, v: unknown) {
  this.ctx[OUT_KEY]!.float = true;
  return v;
});
// A float when one of the expression's variables holds a non-integer (float-kinds.ts floatWitnesses).
env.addGlobal(MARK_FLOAT_IF, function (this: { ctx: Record<string, Holder> }, v: unknown, ...witnesses: unknown[]) {
  if (witnesses.some((w) => typeof w === 'number' && !Number.isInteger(w))) this.ctx[OUT_KEY]!.float = true;
  return v;
});

export interface Compiled {
  template: nunjucks.Template;
  /** true: rendering yields the expression's value (see renderCompiled). */
  native: boolean;
}

const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 20_000;
let compiles = 0;

/** How many templates were compiled since start (tests check that the cache works). */
export function compileCount(): number {
  return compiles;
}

function envInternals(): [unknown[], unknown] {
  const e = env as unknown as { extensionsList: unknown[]; opts: unknown };
  return [e.extensionsList, e.opts];
}

export function parseTemplate(src: string): NjNode {
  try {
    return nj.parser.parse(src, ...envInternals());
  } catch (e) {
    throw templateError(e, src);
  }
}

function build(ast: NjNode, src: string): nunjucks.Template {
  try {
    const c = new nj.compiler.Compiler('template', true);
    c.compile(transformer.transform(withFloatText(ast), [], 'template'));
    const props = new Function(c.getCode() as string)() as object;
    compiles++;
    return new nunjucks.Template({ type: 'code', obj: props } as never, env, 'template', true);
  } catch (e) {
    throw templateError(e, src);
  }
}

/** The one expression of `{{ expr }}` (trailing whitespace allowed), or undefined for mixed text. */
function singleExpression(ast: NjNode): NjNode | undefined {
  let expr: NjNode | undefined;
  for (const out of ast.children as NjNode[]) {
    if (out.typename !== 'Output') return undefined;
    for (const child of out.children as NjNode[]) {
      if (child.typename === 'TemplateData') {
        // Ansible: trailing whitespace (a YAML block scalar's newline) keeps the native value, leading does not.
        if (!expr || String(child.value).trim() !== '') return undefined;
      } else if (expr) return undefined;
      else expr = child;
    }
  }
  return expr;
}

const callGlobal = (name: string, arg: NjNode): NjNode => callGlobalWith(name, [arg]);

/** The expression, marked when its value is a Python float (float-kinds.ts). */
function markFloat(node: NjNode): NjNode {
  const kind = kindOf(node);
  if (kind === 'float') return callGlobal(MARK_FLOAT, node);
  const witnesses = kind === 'dyn' && node.typename !== 'Symbol' && node.typename !== 'LookupVal' ? floatWitnesses(node) : [];
  return witnesses.length > 0 ? callGlobalWith(MARK_FLOAT_IF, [node, ...witnesses]) : node;
}

/**
 * Marks the steps whose result is the expression's value (the expression itself, either branch of
 * `a if c else b`, the right of `or`/`and`, through parentheses) when they return text to keep or a
 * float.
 */
function markTextFilters(node: NjNode, depth = 0): NjNode {
  if (depth > 50) return node;
  switch (node.typename) {
    case 'Filter': {
      const name = String((node.name as NjNode).value);
      return STRING_TYPE_FILTERS.has(name) ? callGlobal(KEEP_TEXT, node) : markFloat(node);
    }
    case 'InlineIf':
      node.body = markTextFilters(node.body as NjNode, depth + 1);
      if (node.else_) node.else_ = markTextFilters(node.else_ as NjNode, depth + 1);
      return node;
    case 'Or':
    case 'And':
      node.right = markTextFilters(node.right as NjNode, depth + 1);
      return node;
    case 'Group':
      if ((node.children as NjNode[]).length === 1) (node.children as NjNode[])[0] = markTextFilters((node.children as NjNode[])[0]!, depth + 1);
      return node;
    default:
      return markFloat(node);
  }
}

function captureAst(expr: NjNode): NjNode {
  const n = nj.nodes;
  const call = callGlobal(CAPTURE, markTextFilters(expr));
  return new n.Root!(0, 0, [new n.Output!(0, 0, [call])]);
}

function remember(key: string, c: Compiled): Compiled {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, c);
  return c;
}

/** mode 'value': native when the string is one expression; 'text': always text; 'expr': a bare expression. */
export function compile(src: string, mode: 'value' | 'text' | 'expr'): Compiled {
  const key = mode[0] + src;
  const hit = cache.get(key);
  if (hit) return hit;
  if (mode === 'text') return remember(key, { template: build(parseTemplate(src), src), native: false });
  if (mode === 'expr') {
    const expr = singleExpression(withBlockEscapes(() => parseTemplate(`{{ ${src} }}`)));
    if (!expr) throw new TemplateFailure(`template error: expected one expression in '${snippet(src)}'`, true);
    return remember(key, { template: build(captureAst(expr), src), native: true });
  }
  const ast = parseTemplate(src);
  const expr = singleExpression(ast);
  if (!expr) return remember(key, compile(src, 'text'));
  return remember(key, { template: build(captureAst(expr), src), native: true });
}

const NOTHING = Symbol('nothing');

/** Render; a native template returns the captured value, a text template its output string. */
export function renderCompiled(c: Compiled, vars: object, src: string): unknown {
  return renderCaptured(c, vars, src).value;
}

/** renderCompiled, and whether the value came from a filter whose text is kept (NativeJinjaText). */
export function renderCaptured(c: Compiled, vars: object, src: string): Holder {
  const holder: Holder = { value: NOTHING, keepText: false, float: false };
  let text: string;
  try {
    text = c.template.render({ [VARS_KEY]: vars, [OUT_KEY]: holder });
  } catch (e) {
    throw templateError(e, src);
  }
  return c.native && holder.value !== NOTHING ? holder : { value: text, keepText: false, float: false };
}

export function snippet(src: string): string {
  const one = src.replace(/\s+/g, ' ').trim();
  return one.length > 100 ? `${one.slice(0, 97)}...` : one;
}

/** Our own failures pass through (found along the `cause` chain); nunjucks errors lose their noise. */
export function templateError(e: unknown, src: string): Error {
  for (let cur: unknown = e; cur instanceof Error; cur = cur.cause) {
    if (cur instanceof TemplateFailure || (cur as { code?: unknown }).code === 'bad-input') return cur;
  }
  const raw = e instanceof Error ? e.message : String(e);
  let line: string | undefined;
  const what = raw
    .replace(/\((?:unknown path|template)\)(?: \[Line (\d+)(?:, Column \d+)?\])?\s*/g, (_m, l?: string) => {
      line ??= l;
      return '';
    })
    .replace(/^(?:Template render error|Error|TypeError|RangeError|SyntaxError): /, '')
    .replace(/\s+/g, ' ')
    .trim();
  const at = line && src.includes('\n') ? ` (template line ${line})` : '';
  return new TemplateFailure(`template error: ${what}${at} in '${snippet(src)}'`, true);
}

/** The user-facing text of a failure raised while rendering `src`. */
export function failureMessage(f: TemplateFailure, src: string): string {
  if (f.formatted) return f.message;
  if (f.name === 'UndefinedError') return `${f.message} in '${snippet(src)}'`;
  return `template error: ${f.message} in '${snippet(src)}'`;
}
