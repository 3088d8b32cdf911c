// Jinja lets a test take one argument without parentheses: `n is divisibleby 3`, `x is eq 5`,
// `v is version '1.2'`. nunjucks only knows `is test(args)`; rewrite the bare form into that call.
import { nj, type NjNode } from './nj.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const P = (nj.parser as unknown as { Parser: { prototype: Record<string, any> } }).Parser.prototype;
const lexer = (nj as unknown as { lexer: Record<string, string> }).lexer;
const origParseIs = P.parseIs as (this: any) => NjNode;
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else', 'recursive']);

function startsArgument(tok: { type: string; value: string } | null): boolean {
  if (!tok) return false;
  const t = tok.type;
  if (t === lexer.TOKEN_SYMBOL) return !KEYWORDS.has(tok.value);
  return [lexer.TOKEN_INT, lexer.TOKEN_FLOAT, lexer.TOKEN_STRING, lexer.TOKEN_BOOLEAN, lexer.TOKEN_NONE,
    lexer.TOKEN_LEFT_BRACKET, lexer.TOKEN_LEFT_CURLY].includes(t);
}

P.parseIs = function parseIs(this: any): NjNode {
  const node = origParseIs.call(this);
  const is = (node.typename === 'Not' ? node.target : node) as NjNode;
  if (is.typename !== 'Is') return node;
  const right = is.right as NjNode;
  if ((right.typename === 'Symbol' || right.typename === 'LookupVal') && startsArgument(this.peekToken())) {
    const arg = this.parsePrimary() as NjNode;
    const n = nj.nodes;
    is.right = new n.FunCall!(right.lineno, right.colno, right, new n.NodeList!(arg.lineno, arg.colno, [arg]));
  }
  return node;
};
