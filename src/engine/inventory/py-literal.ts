// INI values are read like Ansible reads them: Python's ast.literal_eval, and the raw
// text when that fails. So `port=22` is an int, `flag=True` a bool, `x='a b'` a string,
// `l=[1, 'a']` a list, and `flag=true` stays the string "true".
import { setOwn } from '../../own-keys.js';

class NotLiteral extends Error {}

const NUMBER = /(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[0-9](?:_?[0-9])*\.(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[0-9](?:_?[0-9])*[eE][+-]?[0-9](?:_?[0-9])*|[1-9](?:_?[0-9])*|0+(?:_?0)*)(?![\w.])/y;
const STRING_START = /([rRuUbB]{0,2})('''|"""|'|")/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

class Reader {
  i = 0;
  constructor(
    readonly s: string,
    readonly names: Readonly<Record<string, unknown>> = {},
  ) {}

  ws(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') this.i++;
      else if (c === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      else return;
    }
  }

  sticky(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.i;
    const m = re.exec(this.s);
    if (m) this.i = re.lastIndex;
    return m;
  }

  value(): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === '[') return this.seq(']');
    if (c === '(') return this.paren();
    if (c === '{') return this.braces();
    if (c === '-' || c === '+') {
      this.i++;
      this.ws();
      const n = this.number();
      return c === '-' ? -n : n;
    }
    STRING_START.lastIndex = this.i;
    if (STRING_START.test(this.s)) return this.strings();
    if (c !== undefined && /[0-9.]/.test(c)) return this.number();
    const name = this.sticky(NAME);
    if (name) {
      if (name[0] === 'True') return true;
      if (name[0] === 'False') return false;
      if (name[0] === 'None') return null;
      if (Object.prototype.hasOwnProperty.call(this.names, name[0])) return this.names[name[0]];
    }
    throw new NotLiteral();
  }

  number(): number {
    const m = this.sticky(NUMBER);
    if (!m) throw new NotLiteral();
    const t = m[0].replace(/_/g, '');
    if (/^0[oO]/.test(t)) return parseInt(t.slice(2), 8);
    if (/^0[bB]/.test(t)) return parseInt(t.slice(2), 2);
    return Number(t);
  }

  strings(): string {
    let out = '';
    do {
      out += this.string();
      this.ws();
      STRING_START.lastIndex = this.i;
    } while (STRING_START.test(this.s));
    return out;
  }

  string(): string {
    const m = this.sticky(STRING_START)!;
    const raw = /r/i.test(m[1]!);
    const q = m[2]!;
    let out = '';
    for (;;) {
      if (this.i >= this.s.length) throw new NotLiteral();
      if (this.s.startsWith(q, this.i)) {
        this.i += q.length;
        return out;
      }
      const c = this.s[this.i++]!;
      if (c === '\n' && q.length === 1) throw new NotLiteral();
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      if (e === undefined) throw new NotLiteral();
      if (raw) out += '\\' + e;
      else if (e === '\n') continue;
      else if (e in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[e];
      else if (/[0-7]/.test(e)) {
        const oct = /[0-7]{1,3}/y;
        oct.lastIndex = this.i - 1;
        const o = oct.exec(this.s)![0];
        this.i += o.length - 1;
        out += String.fromCodePoint(parseInt(o, 8));
      } else if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = this.s.slice(this.i, this.i + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new NotLiteral();
        this.i += len;
        out += String.fromCodePoint(parseInt(hex, 16));
      } else if (e === 'N') throw new NotLiteral();
      else out += '\\' + e;
    }
  }

  seq(close: string, first?: unknown): unknown[] {
    const items: unknown[] = first === undefined ? [] : [first];
    if (first === undefined) this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return items;
      }
      items.push(this.value());
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== close) throw new NotLiteral();
    }
  }

  paren(): unknown {
    this.i++;
    this.ws();
    if (this.s[this.i] === ')') {
      this.i++;
      return [];
    }
    const v = this.value();
    this.ws();
    if (this.s[this.i] === ')') {
      this.i++;
      return v;
    }
    if (this.s[this.i] !== ',') throw new NotLiteral();
    this.i++;
    return this.seq(')', v);
  }

  braces(): unknown {
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return {};
    }
    const first = this.value();
    this.ws();
    if (this.s[this.i] !== ':') {
      // A set literal; JSON has no sets, a list is the closest shape.
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw new NotLiteral();
      return this.seq('}', first);
    }
    const out: Record<string, unknown> = {};
    let key = first;
    for (;;) {
      this.i++; // ':'
      setOwn(out, dictKey(key), this.value());
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        this.ws();
      }
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      key = this.value();
      this.ws();
      if (this.s[this.i] !== ':') throw new NotLiteral();
    }
  }
}

function dictKey(k: unknown): string {
  if (typeof k === 'string') return k;
  if (k === null) return 'null';
  if (typeof k === 'object') throw new NotLiteral(); // unhashable
  return String(k);
}

/** Python's ast.literal_eval; undefined when the text is not a literal. `names`: bare names read as
 * values (Ansible's Json2Python maps true/false/null before literal_eval). */
export function literalEval(text: string, names?: Readonly<Record<string, unknown>>): { value: unknown } | undefined {
  const r = new Reader(text.replace(/^[ \t]+/, ''), names);
  try {
    const value = r.value();
    r.ws();
    if (r.i !== r.s.length) return undefined;
    return { value };
  } catch (e) {
    if (e instanceof NotLiteral) return undefined;
    throw e;
  }
}

/** Ansible's ini _parse_value: a Python literal when it is one, else the text itself. */
export function parseIniValue(text: string): unknown {
  const r = literalEval(text);
  return r ? r.value : text;
}
