// Which expressions give a Python float, read from the template's syntax: Python prints a float as
// "2.0" where a JavaScript number prints "2", and Ansible 2.14 gives the text (ansible_eval_concat:
// `{{ x * 0.5 }}` is "180.0", a float is never read back as a number). A float literal (`2.0`, `1e20`),
// `/`, `| float`, ceil/floor rounding, and arithmetic with a float operand are floats; `| int`, `| length`
// and integer arithmetic are ints; a variable or a call is known only by its value (a non-integer is a
// float; a float variable whose value is whole, from YAML's `2.0`, prints as an int - see index.ts).
// `| round` gives a float exactly when its input is one (Python's round(int, n) is an int). An
// expression of unknown kind is checked on its variables' values (floatWitnesses).
import type { NjNode } from './nj.js';

export type NumKind = 'float' | 'int' | 'other' | 'dyn';

const ARITH = new Set(['Add', 'Sub', 'Mul', 'Pow', 'FloorDiv', 'Mod']);
const INT_FILTERS = new Set(['int', 'length', 'count', 'wordcount']);
const TEXT_NODES = new Set(['Concat', 'Compare', 'Not', 'In', 'Is', 'Array', 'Dict', 'TemplateData']);

const combine = (l: NumKind, r: NumKind): NumKind => (l === 'float' || r === 'float' ? 'float' : l === 'int' && r === 'int' ? 'int' : l === 'other' && r === 'other' ? 'other' : 'dyn');

/** The filter's name, input and literal arguments. */
function filterParts(node: NjNode): { name: string; input: NjNode | undefined; args: NjNode[] } {
  const children = (node.args as NjNode).children as NjNode[];
  return { name: String((node.name as NjNode).value), input: children[0], args: children.slice(1) };
}

/** round's method when written as a literal ('common' when left out); undefined when computed. */
export function roundMethod(args: NjNode[]): string | undefined {
  const positional = args.filter((a) => a.typename !== 'KeywordArgs');
  const kw = args.find((a) => a.typename === 'KeywordArgs');
  const pair = (kw?.children as NjNode[] | undefined)?.find((p) => String((p.key as NjNode).value) === 'method');
  const m = pair ? (pair.value as NjNode) : positional[1];
  if (m === undefined) return 'common';
  return m.typename === 'Literal' && typeof m.value === 'string' ? m.value : undefined;
}

function filterKind(node: NjNode, depth: number): NumKind {
  const { name, input, args } = filterParts(node);
  if (name === 'float') return 'float';
  if (INT_FILTERS.has(name)) return 'int';
  if (name === 'abs') return input ? kindOf(input, depth + 1) : 'dyn';
  if (name === 'round') {
    const method = roundMethod(args);
    if (method === 'ceil' || method === 'floor') return 'float';
    return method === 'common' && input ? kindOf(input, depth + 1) : 'dyn';
  }
  return 'dyn';
}

/** What the expression gives, as far as its syntax tells. */
export function kindOf(node: NjNode, depth = 0): NumKind {
  if (depth > 50) return 'dyn';
  const t = node.typename;
  if (t === 'Literal') return typeof node.value === 'number' ? (node.hwFloat ? 'float' : 'int') : typeof node.value === 'boolean' ? 'int' : 'other';
  if (t === 'Div') return 'float';
  if (t === 'Mod' && (node.left as NjNode).typename === 'Literal' && typeof (node.left as NjNode).value === 'string') return 'other';
  if (ARITH.has(t)) return combine(kindOf(node.left as NjNode, depth + 1), kindOf(node.right as NjNode, depth + 1));
  if (t === 'Neg' || t === 'Pos') return kindOf(node.target as NjNode, depth + 1);
  if (t === 'Filter') return filterKind(node, depth);
  if (t === 'Group' && (node.children as NjNode[]).length === 1) return kindOf((node.children as NjNode[])[0]!, depth + 1);
  if (t === 'InlineIf' && node.else_) {
    const a = kindOf(node.body as NjNode, depth + 1);
    return a === kindOf(node.else_ as NjNode, depth + 1) ? a : 'dyn';
  }
  if (TEXT_NODES.has(t)) return 'other';
  return 'dyn';
}

/** A variable or a chain of lookups on one: evaluating it twice reads the same value and runs nothing. */
export function isPlainRead(node: NjNode, depth = 0): boolean {
  if (depth > 20) return false;
  if (node.typename === 'Symbol' || node.typename === 'Literal') return true;
  return node.typename === 'LookupVal' && isPlainRead(node.target as NjNode, depth + 1) && isPlainRead(node.val as NjNode, depth + 1);
}

/**
 * For an expression of unknown kind: the plain variable reads among its numeric operands (through
 * arithmetic, parentheses, `-x`, `| abs`, `| round`). Python's arithmetic with a float operand gives a
 * float, so when one of them holds a non-integer the result is a float, even a whole one (`f * 2` with
 * f = 2.5 is 5.0). They are read again after the expression (plain reads: same value, nothing run).
 */
export function floatWitnesses(node: NjNode, depth = 0): NjNode[] {
  if (depth > 50) return [];
  const t = node.typename;
  if (t === 'Symbol' || t === 'LookupVal') return isPlainRead(node) ? [node] : [];
  if (t === 'Mod' && kindOf(node) === 'other') return [];
  if (ARITH.has(t)) return [...floatWitnesses(node.left as NjNode, depth + 1), ...floatWitnesses(node.right as NjNode, depth + 1)];
  if (t === 'Neg' || t === 'Pos') return floatWitnesses(node.target as NjNode, depth + 1);
  if (t === 'Group' && (node.children as NjNode[]).length === 1) return floatWitnesses((node.children as NjNode[])[0]!, depth + 1);
  if (t !== 'Filter') return [];
  const { name, input, args } = filterParts(node);
  return input && (name === 'abs' || (name === 'round' && roundMethod(args) === 'common')) ? floatWitnesses(input, depth + 1) : [];
}
