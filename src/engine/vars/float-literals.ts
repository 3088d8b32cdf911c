// Number literals as Jinja 3.1's lexer reads them (jinja2/lexer.py float_re, integer_re): nunjucks
// reads `1e20` as a name (an undefined variable), `1_000` and `0x1F` as names too. Here a literal with an
// exponent or underscores is a float or an int token, `0b`/`0o`/`0x` an int; digits right after a `.`
// are left to the numeric-attribute rule (`item.0`, syntax-patch.ts), as Jinja's float_re (?<!\.) does.
// A Literal parsed from a float token is marked (hwFloat): `2.0` is a Python float, printed "2.0"
// (float-kinds.ts), which a JavaScript number cannot tell from 2.
import { nj, type NjNode } from './nj.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const lexer = (nj as unknown as { lexer: Record<string, any> }).lexer;
const proto = Object.getPrototypeOf(lexer.lex('', {})) as Record<string, any>;
const prevNext = proto.nextToken as (this: any) => unknown;
const P = (nj.parser as unknown as { Parser: { prototype: Record<string, any> } }).Parser.prototype;
const prevPrimary = P.parsePrimary as (this: any, noPostfix?: boolean) => NjNode;

const FLOAT = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy;
const INT = /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy;

function take(lx: any, text: string, type: string, value: string): { type: string; value: string; lineno: number; colno: number } {
  const tok = { type, value, lineno: lx.lineno as number, colno: lx.colno as number };
  for (let i = 0; i < text.length; i++) lx.forward();
  return tok;
}

/** The number at the lexer's position when nunjucks would misread it; undefined to let nunjucks lex it. */
function jinjaNumber(lx: any): unknown {
  const str = lx.str as string;
  FLOAT.lastIndex = lx.index;
  const f = FLOAT.exec(str);
  if (f) return /[e_]/i.test(f[0]) ? take(lx, f[0], lexer.TOKEN_FLOAT, f[0].replace(/_/g, '')) : undefined;
  INT.lastIndex = lx.index;
  const i = INT.exec(str);
  if (!i || !/^0[box]|_/i.test(i[0])) return undefined;
  return take(lx, i[0], lexer.TOKEN_INT, BigInt(i[0].replace(/_/g, '')).toString());
}

proto.nextToken = function nextToken(this: any) {
  const str = this.str as string;
  if (this.in_code && /[0-9]/.test(str[this.index] ?? '') && str[this.index - 1] !== '.') {
    const tok = jinjaNumber(this);
    if (tok) return tok;
  }
  return prevNext.call(this);
};

P.parsePrimary = function parsePrimary(this: any, noPostfix?: boolean): NjNode {
  const tok = this.peekToken() as { type: string } | null;
  const node = prevPrimary.call(this, noPostfix);
  if (tok?.type === lexer.TOKEN_FLOAT && node.typename === 'Literal' && typeof node.value === 'number') node.hwFloat = true;
  return node;
};
