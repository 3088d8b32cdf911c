// Python's printf-style string formatting (`'%0.1f' % x`, `'%s-%d' % (a, b)`, `'%(k)s' % d`), which
// Jinja leaves to Python's `%` on a str: conversions d i u f F e E g G s r x X o c %, flags - + space # 0,
// width and precision. A tuple is a list here, so a list is spread over the conversions when its length
// is their number (else it is one value, as `'%s' % [1, 2]`).
import { isPlainObject, pyRepr, pyStr, pyTypeName } from './py.js';
import { pyFloatText } from './concat.js';
import { TemplateFailure } from './undefined.js';

const SPEC = /%(?:\(([^)]*)\))?([-+ #0]*)(\d+)?(?:\.(\d+))?([diouxXeEfFgGcrsa%])/g;

interface Spec {
  flags: string;
  width?: number;
  precision?: number;
  conv: string;
}

function number(v: unknown, conv: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return Number(v);
  throw new TemplateFailure(`%${conv} format: a real number is required, not ${pyTypeName(v)}`);
}

/** Python's exponent form: at least two exponent digits (1e+20 -> 1e+20, 2e-5 -> 2e-05). */
const expForm = (n: number, digits: number) => n.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');

function general(n: number, s: Spec): string {
  const p = s.precision === undefined ? 6 : Math.max(s.precision, 1);
  const exp = n === 0 ? 0 : Number(expForm(n, p - 1).split('e')[1]);
  let out = exp >= -4 && exp < p ? n.toFixed(Math.max(p - 1 - exp, 0)) : expForm(n, p - 1);
  if (!s.flags.includes('#')) out = out.replace(/(\.\d*?)0+(?=e|$)/, '$1').replace(/\.(?=e|$)/, '');
  return out;
}

function numeric(v: unknown, s: Spec): string {
  const n = number(v, s.conv);
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'nan' : n > 0 ? 'inf' : '-inf';
  const c = s.conv.toLowerCase();
  const alt = s.flags.includes('#');
  let body: string;
  if ('diu'.includes(c)) body = Math.trunc(n).toString();
  else if (c === 'x' || c === 'o') body = (alt ? (c === 'x' ? '0x' : '0o') : '') + Math.trunc(Math.abs(n)).toString(c === 'x' ? 16 : 8);
  else if (c === 'f') body = n.toFixed(s.precision ?? 6);
  else if (c === 'e') body = expForm(n, s.precision ?? 6);
  else body = general(n, s);
  if ((c === 'x' || c === 'o') && n < 0) body = `-${body}`;
  if (s.conv === 'X' || s.conv === 'E' || s.conv === 'G') body = body.toUpperCase();
  const sign = body.startsWith('-') ? '' : s.flags.includes('+') ? '+' : s.flags.includes(' ') ? ' ' : '';
  return sign + body;
}

function convert(v: unknown, s: Spec): string {
  if (s.conv === 's' || s.conv === 'r' || s.conv === 'a') {
    const t = s.conv === 's' ? (typeof v === 'number' && !Number.isInteger(v) ? pyFloatText(v) : pyStr(v)) : pyRepr(v);
    return s.precision === undefined ? t : t.slice(0, s.precision);
  }
  if (s.conv === 'c') {
    if (typeof v === 'string' && [...v].length === 1) return v;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0x10ffff) return String.fromCodePoint(v);
    throw new TemplateFailure('%c requires int or char');
  }
  return numeric(v, s);
}

function pad(text: string, s: Spec): string {
  if (s.width === undefined || text.length >= s.width) return text;
  if (s.flags.includes('-')) return text.padEnd(s.width);
  if (s.flags.includes('0') && !'srac'.includes(s.conv)) {
    const sign = /^[-+ ]/.test(text) ? text[0] : '';
    return sign + text.slice(sign.length).padStart(s.width - sign.length, '0');
  }
  return text.padStart(s.width);
}

/** `format % args` as Python's str.__mod__. */
export function pyPercentFormat(format: string, args: unknown): string {
  const specs = [...format.matchAll(SPEC)];
  const wanted = specs.filter((m) => m[5] !== '%' && m[1] === undefined).length;
  const byName = specs.some((m) => m[1] !== undefined);
  if (byName && !isPlainObject(args)) throw new TemplateFailure('format requires a mapping');
  const values = Array.isArray(args) && args.length === wanted ? [...args] : [args];
  let next = 0;
  const out = format.replace(SPEC, (_m, name: string | undefined, flags: string, width?: string, precision?: string, conv?: string) => {
    const s: Spec = { flags, conv: conv!, ...(width ? { width: Number(width) } : {}), ...(precision !== undefined ? { precision: Number(precision) } : {}) };
    if (conv === '%') return pad('%', s);
    if (name !== undefined) {
      const d = args as Record<string, unknown>;
      if (!(name in d)) throw new TemplateFailure(`'${name}'`);
      return pad(convert(d[name], s), s);
    }
    if (next >= values.length) throw new TemplateFailure('not enough arguments for format string');
    return pad(convert(values[next++], s), s);
  });
  if (!byName && next < values.length && !(values.length === 1 && isPlainObject(values[0]))) throw new TemplateFailure('not all arguments converted during string formatting');
  return out;
}
