// Parser patches for Jinja2 syntax nunjucks does not parse (each checked against Jinja2 3.1):
// - numeric attributes: `item.0`, `item.1.key` (the lexer reads `1.` and `0.1` as floats);
// - expression dict keys (`{ 'a' ~ v: 1 }`, `{ k: 1 }` uses the variable k), trailing commas, `(1,)`;
// - chained conditional expressions (`a if x else b if y else c`);
// - `for x in "a", "b"` (an unparenthesized tuple);
// - `{% do expr %}` (the do extension Ansible enables), `{% set ns.attr = v %}` (namespace());
// - `f(*args, **kwargs)`.
// Installed before nunjucks' jinja-compat (which wraps parseAggregate for slices): runtime-patch
// imports this module first.
import { nj, type NjNode, type NodeClass } from './nj.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const P = (nj.parser as unknown as { Parser: { prototype: Record<string, any> } }).Parser.prototype;
const lx = (nj as unknown as { lexer: Record<string, string> }).lexer;
const n = nj.nodes;

/** `*x` in a call's arguments, `**x` among its keyword arguments. */
export const HwSplat = n.Node!.extend('HwSplat', { fields: ['target', 'kw'] }) as NodeClass;
/** `{% do expr %}`: evaluates expr, outputs nothing (a FunCall so Output's type check accepts it). */
export const HwDiscard = n.FunCall!.extend('HwDiscard') as NodeClass;

type Tok = { type: string; value: string; lineno: number; colno: number };

function pushBack(parser: any, tok: Tok): void {
  parser.peeked = tok;
}

function indexLiteral(tok: Tok, digits: string): NjNode {
  return new n.Literal!(tok.lineno, tok.colno, Number.parseInt(digits, 10));
}

P.parsePostfix = function parsePostfix(this: any, node: NjNode): NjNode {
  for (let tok = this.peekToken() as Tok | null; tok; tok = this.peekToken()) {
    if (tok.type === lx.TOKEN_LEFT_PAREN) {
      node = new n.FunCall!(tok.lineno, tok.colno, node, this.parseSignature());
    } else if (tok.type === lx.TOKEN_LEFT_BRACKET) {
      const lookup = this.parseAggregate() as NjNode;
      if (lookup.children.length > 1) this.fail('invalid index');
      node = new n.LookupVal!(tok.lineno, tok.colno, node, lookup.children[0]);
    } else if (tok.type === lx.TOKEN_OPERATOR && tok.value === '.') {
      this.nextToken();
      node = attribute(this, tok, node);
    } else break;
  }
  return node;
};

/** After a `.`: a name is an attribute; digits index (`x.0` is x[0], `x.1.key` lexes as x . `1.` key). */
function attribute(parser: any, dot: Tok, node: NjNode): NjNode {
  const tok = parser.nextToken() as Tok;
  if (tok.type === lx.TOKEN_SYMBOL) return new n.LookupVal!(dot.lineno, dot.colno, node, new n.Literal!(tok.lineno, tok.colno, tok.value));
  if (tok.type !== lx.TOKEN_INT && tok.type !== lx.TOKEN_FLOAT) parser.fail(`expected name as lookup value, got ${tok.value}`, tok.lineno, tok.colno);
  for (const part of tok.value.split('.')) if (part !== '') node = new n.LookupVal!(dot.lineno, dot.colno, node, indexLiteral(tok, part));
  if (tok.value.endsWith('.')) pushBack(parser, { ...tok, type: lx.TOKEN_OPERATOR, value: '.' });
  return node;
}

/** Jinja's parse_condexpr: `a if c else b if d else e`; the else branch is itself a conditional. */
P.parseInlineIf = function parseInlineIf(this: any): NjNode {
  let node = this.parseOr() as NjNode;
  while (this.skipSymbol('if')) {
    const cond = this.parseOr() as NjNode;
    const inline = new n.InlineIf!(node.lineno, node.colno);
    inline.body = node;
    inline.cond = cond;
    inline.else_ = this.skipSymbol('else') ? (this.parseInlineIf() as NjNode) : null;
    node = inline;
  }
  return node;
};

const CLOSERS: Record<string, string> = { '(': lx.TOKEN_RIGHT_PAREN!, '[': lx.TOKEN_RIGHT_BRACKET!, '{': lx.TOKEN_RIGHT_CURLY! };

/** Lists, dicts and tuples with Jinja's rules: any expression as a dict key, trailing commas, `(x,)`. */
P.parseAggregate = function parseAggregate(this: any): NjNode | null {
  const tok = this.nextToken() as Tok;
  let node: NjNode;
  if (tok.type === lx.TOKEN_LEFT_PAREN) node = new n.Group!(tok.lineno, tok.colno);
  else if (tok.type === lx.TOKEN_LEFT_BRACKET) node = new n.Array!(tok.lineno, tok.colno);
  else if (tok.type === lx.TOKEN_LEFT_CURLY) node = new n.Dict!(tok.lineno, tok.colno);
  else return null;
  const closer = CLOSERS[tok.value];
  let trailingComma = false;
  for (;;) {
    if (this.skip(closer)) break;
    if (node.children.length > 0) {
      if (!this.skip(lx.TOKEN_COMMA)) this.fail(`expected ',' or '${tok.value === '{' ? '}' : tok.value === '[' ? ']' : ')'}'`, tok.lineno, tok.colno);
      trailingComma = true;
      if (this.skip(closer)) break;
    }
    trailingComma = false;
    if (node.typename === 'Dict') {
      const key = this.parseExpression() as NjNode;
      if (!this.skip(lx.TOKEN_COLON)) this.fail("expected ':' after a dict key", key.lineno, key.colno);
      node.addChild(new n.Pair!(key.lineno, key.colno, key, this.parseExpression()));
    } else node.addChild(this.parseExpression());
  }
  // `(x,)` is a one-element tuple; compiler-patch compiles a Group of 2+ items as a list.
  if (node.typename === 'Group' && node.children.length === 1 && trailingComma) {
    const arr = new n.Array!(tok.lineno, tok.colno);
    arr.addChild(node.children[0]);
    return arr;
  }
  return node;
};

/** Jinja's for loop iterates an unparenthesized tuple too: `for x in "a", "b"`. */
const origParseExpression = P.parseExpression as (this: any) => NjNode;
const origParseFor = P.parseFor as (this: any) => NjNode;
P.parseFor = function parseFor(this: any): NjNode {
  // parseFor calls parseExpression once for the iterable (the loop body is parsed by parseUntilBlocks).
  let first = true;
  this.parseExpression = function tupleExpression(this: any): NjNode {
    if (!first) return origParseExpression.call(this);
    first = false;
    const head = origParseExpression.call(this);
    if (this.peekToken()?.type !== lx.TOKEN_COMMA) return head;
    const arr = new n.Array!(head.lineno, head.colno, [head]);
    while (this.skip(lx.TOKEN_COMMA)) {
      const next = this.peekToken() as Tok;
      if (next.type === lx.TOKEN_BLOCK_END) break;
      arr.addChild(origParseExpression.call(this));
    }
    return arr;
  };
  try {
    return origParseFor.call(this);
  } finally {
    delete this.parseExpression;
  }
};

/** `*args` and `**kwargs` in a call. */
P.parseSignature = function parseSignature(this: any, tolerant: boolean, noParens: boolean): NjNode | null {
  let tok = this.peekToken() as Tok;
  if (!noParens && tok.type !== lx.TOKEN_LEFT_PAREN) {
    if (tolerant) return null;
    this.fail('expected arguments', tok.lineno, tok.colno);
  }
  if (tok.type === lx.TOKEN_LEFT_PAREN) tok = this.nextToken();
  const args = new n.NodeList!(tok.lineno, tok.colno);
  const kwargs = new n.KeywordArgs!(tok.lineno, tok.colno);
  let checkComma = false;
  for (;;) {
    tok = this.peekToken();
    if (!noParens && tok.type === lx.TOKEN_RIGHT_PAREN) {
      this.nextToken();
      break;
    }
    if (noParens && tok.type === lx.TOKEN_BLOCK_END) break;
    if (checkComma && !this.skip(lx.TOKEN_COMMA)) this.fail("expected ',' between call arguments", tok.lineno, tok.colno);
    checkComma = true;
    if (!noParens && this.skip(lx.TOKEN_RIGHT_PAREN)) break; // f(a, b,)
    if (this.skipValue(lx.TOKEN_OPERATOR, '**')) {
      kwargs.addChild(new HwSplat(tok.lineno, tok.colno, this.parseExpression(), true));
    } else if (this.skipValue(lx.TOKEN_OPERATOR, '*')) {
      args.addChild(new HwSplat(tok.lineno, tok.colno, this.parseExpression(), false));
    } else {
      const arg = this.parseExpression() as NjNode;
      if (this.skipValue(lx.TOKEN_OPERATOR, '=')) kwargs.addChild(new n.Pair!(arg.lineno, arg.colno, arg, this.parseExpression()));
      else args.addChild(arg);
    }
  }
  if (kwargs.children.length) args.addChild(kwargs);
  return args;
};

const origStatement = P.parseStatement as (this: any) => NjNode | null;
P.parseStatement = function parseStatement(this: any): NjNode | null {
  const tok = this.peekToken() as Tok;
  if (tok.type !== lx.TOKEN_SYMBOL || tok.value !== 'do' || this.breakOnBlocks?.includes('do')) return origStatement.call(this);
  this.nextToken();
  const expr = this.parseExpression() as NjNode;
  this.advanceAfterBlockEnd('do');
  return new n.Output!(tok.lineno, tok.colno, [new HwDiscard(tok.lineno, tok.colno, expr, new n.NodeList!(0, 0, []))]);
};
