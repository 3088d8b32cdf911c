// Three lexer differences from Jinja as Ansible runs it:
// - trim_blocks removes the newline after a comment `{# #}` too (Jinja's comment-end rule carries the
//   block suffix); nunjucks trims it only after `%}` (geerlingguy.firewall's template has such comments).
// - Jinja balances braces inside an expression, so `{{ {'a': {'b': 1}} }}` and `{% set x = {'a': {'b': 1}} %}`
//   work; nunjucks ends the expression at the first `}}`. Track `{` depth and split `}}` while a dict is open.
// - Ansible doubles backslashes in string literals inside `{{ }}` before Jinja sees them, so there they are
//   raw ('\d+' is a regex, 'a\nb' has 4 characters). Inside `{% %}` Python escapes apply and unknown ones
//   (\d) keep their backslash; nunjucks would drop it.
import { nj } from './nj.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const lexer = (nj as unknown as { lexer: Record<string, any> }).lexer;
const proto = Object.getPrototypeOf(lexer.lex('', {})) as Record<string, any>;
const origNext = proto.nextToken as (this: any) => { type: string; value: string } | null;
const LEFT = lexer.TOKEN_LEFT_CURLY as string;
const RIGHT = lexer.TOKEN_RIGHT_CURLY as string;

proto.nextToken = function nextToken(this: any) {
  const depth = (this.hwDepth as number | undefined) ?? 0;
  if (this.in_code && depth > 0 && (this.str as string).startsWith('}', this.index)) {
    const tok = { type: RIGHT, value: '}', lineno: this.lineno, colno: this.colno };
    this.forward();
    this.hwDepth = depth - 1;
    return tok;
  }
  const tok = origNext.call(this);
  if (tok?.type === 'comment' && this.trimBlocks) skipNewline(this);
  if (tok?.type === 'variable-start') this.hwInVar = true;
  else if (tok?.type === 'variable-end' || tok?.type === 'block-start') this.hwInVar = false;
  if (tok?.type === LEFT) this.hwDepth = depth + 1;
  else if (tok && tok.type !== 'whitespace' && !this.in_code) this.hwDepth = 0;
  return tok;
};

/** One \n or \r\n right after the current position, as trim_blocks drops it. */
function skipNewline(lx: any): void {
  const str = lx.str as string;
  if (str.startsWith('\n', lx.index)) lx.forward();
  else if (str.startsWith('\r\n', lx.index)) {
    lx.forward();
    lx.forward();
  }
}

/** Bare expressions (when:, until:) are evaluated by Ansible inside `{% if %}`: Python escapes apply. */
let rawInVariables = true;
export function withBlockEscapes<T>(fn: () => T): T {
  rawInVariables = false;
  try {
    return fn();
  } finally {
    rawInVariables = true;
  }
}

const PY_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

proto._parseString = function parseString(this: any, delimiter: string): string {
  this.forward();
  let str = '';
  while (!this.isFinished() && this.current() !== delimiter) {
    const cur = this.current() as string;
    if (cur === '\\' && !(this.hwInVar && rawInVariables)) {
      this.forward();
      const c = this.current() as string;
      str += PY_ESCAPES[c] ?? `\\${c}`;
    } else str += cur;
    this.forward();
  }
  this.forward();
  return str;
};
