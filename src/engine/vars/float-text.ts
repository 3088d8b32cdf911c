// A float that is printed gets Python's text (float-kinds.ts says which expressions are floats):
// `x={{ n / 2 }}` is "x=180.0", `'v' ~ 2.0` is "v2.0", `(x | float) | string` is "5.0". The template's
// AST is rewritten once, when it is compiled: each printed expression, each operand of `~` and the
// input of `| string` that is a float goes through a global that formats a number as Python's repr.
import { nj, type NjNode } from './nj.js';
import { pyFloatText } from './concat.js';
import { floatWitnesses, kindOf } from './float-kinds.js';

const FLOAT_TEXT = '__hw_float_text';
const FLOAT_TEXT_IF = '__hw_float_text_if';

const isFloat = (v: unknown): boolean => typeof v === 'number' && !Number.isInteger(v);

export function addFloatTextGlobals(env: { addGlobal(name: string, fn: (...a: unknown[]) => unknown): unknown }): void {
  env.addGlobal(FLOAT_TEXT, (v: unknown) => (typeof v === 'number' ? pyFloatText(v) : v));
  // A float when one of the expression's variables holds a non-integer (float-kinds.ts floatWitnesses).
  env.addGlobal(FLOAT_TEXT_IF, (v: unknown, ...witnesses: unknown[]) => (typeof v === 'number' && witnesses.some(isFloat) ? pyFloatText(v) : v));
}

export function callGlobal(name: string, args: NjNode[]): NjNode {
  const n = nj.nodes;
  const at = args[0]!;
  return new n.FunCall!(at.lineno, at.colno, new n.Symbol!(0, 0, name), new n.NodeList!(0, 0, args));
}

/** `node`, printed as Python prints it when it is a float. */
function asText(node: NjNode): NjNode {
  const kind = kindOf(node);
  if (kind === 'float') return callGlobal(FLOAT_TEXT, [node]);
  const witnesses = kind === 'dyn' && node.typename !== 'Symbol' && node.typename !== 'LookupVal' ? floatWitnesses(node) : [];
  return witnesses.length > 0 ? callGlobal(FLOAT_TEXT_IF, [node, ...witnesses]) : node;
}

/** Rewrites the template in place (children first, so the wrappers added are not visited again). */
export function withFloatText(node: NjNode, depth = 0): NjNode {
  if (depth > 200) return node;
  for (const field of node.fields ?? []) {
    const v = node[field] as unknown;
    if (Array.isArray(v)) v.forEach((c) => isNode(c) && withFloatText(c, depth + 1));
    else if (isNode(v)) withFloatText(v, depth + 1);
  }
  if (node.typename === 'Output') node.children = (node.children as NjNode[]).map(asText);
  else if (node.typename === 'Concat') {
    node.left = asText(node.left as NjNode);
    node.right = asText(node.right as NjNode);
  } else if (node.typename === 'Filter' && String((node.name as NjNode).value) === 'string') {
    const args = (node.args as NjNode).children as NjNode[];
    if (args[0]) args[0] = asText(args[0]);
  }
  return node;
}

const isNode = (v: unknown): v is NjNode => typeof v === 'object' && v !== null && typeof (v as NjNode).typename === 'string';
