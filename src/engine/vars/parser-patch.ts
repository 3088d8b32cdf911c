// Jinja's parse_filter_expr: after a unary expression, `| filter`, `is test` and calls chain left to
// right, so `x is mapping | ternary(a, b)` filters the test's result, `x | length is even` tests the
// filter's, and `1 + x is number` is `1 + (x is number)`. nunjucks parses `is` below comparisons with a
// whole expression as the test (reading `mapping | ternary(a, b)` as the test name). A test takes its
// arguments in parentheses or one bare argument: `n is divisibleby 3`, `v is version '1.2'`.
import { nj, type NjNode } from './nj.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const P = (nj.parser as unknown as { Parser: { prototype: Record<string, any> } }).Parser.prototype;
const lexer = (nj as unknown as { lexer: Record<string, string> }).lexer;
const n = nj.nodes;
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else', 'recursive']);

type Tok = { type: string; value: string; lineno: number; colno: number };

function startsArgument(tok: Tok | null): boolean {
  if (!tok) return false;
  const t = tok.type;
  if (t === lexer.TOKEN_SYMBOL) return !KEYWORDS.has(tok.value);
  return [lexer.TOKEN_INT, lexer.TOKEN_FLOAT, lexer.TOKEN_STRING, lexer.TOKEN_BOOLEAN, lexer.TOKEN_NONE,
    lexer.TOKEN_LEFT_BRACKET, lexer.TOKEN_LEFT_CURLY].includes(t);
}

/** A test's name: `defined`, `none`/`true`/`false` (lexed as literals), dotted `ns.test`. */
function parseTestName(parser: any): NjNode {
  const tok = parser.nextToken() as Tok | null;
  if (tok && (tok.type === lexer.TOKEN_NONE || tok.type === lexer.TOKEN_BOOLEAN)) return new n.Literal!(tok.lineno, tok.colno, tok.value);
  if (!tok || tok.type !== lexer.TOKEN_SYMBOL) parser.fail(`expected a test name after 'is', got ${tok?.value ?? 'end of file'}`, tok?.lineno, tok?.colno);
  let name = tok!.value;
  while (parser.skipValue(lexer.TOKEN_OPERATOR, '.')) name += '.' + (parser.expect(lexer.TOKEN_SYMBOL) as Tok).value;
  return new n.Symbol!(tok!.lineno, tok!.colno, name);
}

/** Jinja's parse_test: `is [not] name`, then `(args)`, one bare primary argument, or none. */
function parseTest(parser: any, node: NjNode): NjNode {
  const isTok = parser.nextToken() as Tok;
  const negated = parser.skipSymbol('not') as boolean;
  let test = parseTestName(parser);
  const next = parser.peekToken() as Tok | null;
  if (next?.type === lexer.TOKEN_LEFT_PAREN) {
    test = new n.FunCall!(test.lineno, test.colno, test, parser.parseSignature());
  } else if (next?.type === lexer.TOKEN_SYMBOL && next.value === 'is') {
    parser.fail('You cannot chain multiple tests with is', next.lineno, next.colno);
  } else if (startsArgument(next)) {
    const arg = parser.parsePrimary() as NjNode; // a primary with its postfix (`.a`, `[0]`, `(…)`), no filters
    test = new n.FunCall!(test.lineno, test.colno, test, new n.NodeList!(arg.lineno, arg.colno, [arg]));
  }
  const is = new n.Is!(isTok.lineno, isTok.colno, node, test);
  return negated ? new n.Not!(isTok.lineno, isTok.colno, is) : is;
}

function parseFilterCall(parser: any, node: NjNode): NjNode {
  const name = parser.parseFilterName() as NjNode;
  return new n.Filter!(name.lineno, name.colno, name, new n.NodeList!(name.lineno, name.colno, [node, ...parser.parseFilterArgs(node)]));
}

P.parseFilter = function parseFilterExpr(this: any, node: NjNode): NjNode {
  for (let tok = this.peekToken() as Tok | null; tok; tok = this.peekToken()) {
    if (tok.type === lexer.TOKEN_PIPE) {
      this.nextToken();
      node = parseFilterCall(this, node);
    } else if (tok.type === lexer.TOKEN_SYMBOL && tok.value === 'is') {
      node = parseTest(this, node);
    } else if (tok.type === lexer.TOKEN_LEFT_PAREN) {
      node = new n.FunCall!(tok.lineno, tok.colno, node, this.parseSignature());
    } else break;
  }
  return node;
};

// `is` is consumed by the filter chain above; comparisons are the level below `in`.
P.parseIs = function parseIs(this: any): NjNode {
  return this.parseCompare();
};
