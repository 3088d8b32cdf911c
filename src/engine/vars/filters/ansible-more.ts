// More of ansible-core's filters (lib/ansible/plugins/filter/core.py, urls.py, mathstuff.py) and the
// community.general `dict` filter, with Python's semantics. Path filters run on the controller, as in Ansible.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { isPlainObject, pyRepr, pyStr, pyTypeName } from '../py.js';
import { TemplateFailure } from '../undefined.js';
import { arg, splitArgs, type Fn } from './args.js';

const STYLES: Record<string, Record<string, string>> = {
  plain: { decoration: '# ' },
  erlang: { decoration: '% ' },
  c: { decoration: '// ' },
  cblock: { beginning: '/*', decoration: ' * ', end: ' */' },
  xml: { beginning: '<!--', decoration: ' - ', end: '-->' },
};

/** core.py comment(): a decorated block (prefix line, each text line decorated, postfix line). */
function comment(text: unknown, ...rest: unknown[]): string {
  const a = splitArgs(rest);
  const style = String(arg(a, 0, 'style', 'plain'));
  const styleParams = STYLES[style];
  if (!styleParams) throw new TemplateFailure(`Invalid style '${style}'. Available styles: ${Object.keys(STYLES).join(', ')}`);
  const around = String(a.kw.decoration ?? styleParams.decoration).trimEnd();
  const p: Record<string, unknown> = { newline: '\n', beginning: '', prefix: around, prefix_count: 1, decoration: '', postfix: around, postfix_count: 1, end: '', ...styleParams, ...a.kw };
  const nl = String(p.newline);
  const deco = String(p.decoration);
  const beginning = p.beginning ? `${String(p.beginning)}${nl}` : '';
  const prefix = p.prefix ? (p.prefix !== nl ? `${String(p.prefix)}${nl}` : nl).repeat(Number(p.prefix_count)) : '';
  const body = (deco + pyStr(text).split(nl).join(nl + deco)).split(deco + nl).join(deco.trimEnd() + nl);
  const postfix = ['', ...Array.from({ length: Number(p.postfix_count) }, () => String(p.postfix))].join(nl);
  const end = p.end ? `${nl}${String(p.end)}` : '';
  return beginning + prefix + body + postfix + end;
}

/** core.py subelements(): [element, value] for each value of the dotted key's list in each element. */
function subelements(obj: unknown, path: unknown, ...rest: unknown[]): unknown[] {
  const skipMissing = Boolean(arg(splitArgs(rest), 0, 'skip_missing', false));
  const elements = Array.isArray(obj) ? obj : isPlainObject(obj) ? Object.values(obj) : undefined;
  if (!elements) throw new TemplateFailure('obj must be a list of dicts or a nested dict');
  const keys = Array.isArray(path) ? path.map(String) : typeof path === 'string' ? path.split('.') : undefined;
  if (!keys) throw new TemplateFailure(`subelements must be a list or a string, got ${pyTypeName(path)}`);
  const out: unknown[] = [];
  for (const element of elements) {
    let values: unknown = element;
    let key = '';
    for (key of keys) {
      if (!isPlainObject(values)) throw new TemplateFailure(`the key '${key}' should point to a dictionary, got ${pyRepr(values)}`);
      if (!(key in values)) {
        if (!skipMissing) throw new TemplateFailure(`could not find '${key}' key in iterated item ${pyRepr(values)}`);
        values = [];
        break;
      }
      values = values[key];
    }
    if (!Array.isArray(values)) throw new TemplateFailure(`the key '${key}' should point to a list, got ${pyRepr(values)}`);
    for (const v of values) out.push([element, v]);
  }
  return out;
}

/** Python's str % args for the conversions templates use: %s %r %d %i %f %x %o %e %%, flags and width. */
export function percentFormat(fmt: string, args: unknown[], named?: Record<string, unknown>): string {
  let i = 0;
  const out = fmt.replace(/%(?:\(([^)]*)\))?([-+ #0]*)(\d+|\*)?(?:\.(\d+))?([sdirfFxXoeEgGc%])/g, (_m, name: string | undefined, flags: string, width: string | undefined, prec: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    const v = name !== undefined ? named?.[name] : args[i++];
    if (name === undefined && i > args.length) throw new TemplateFailure('not enough arguments for format string');
    let s: string;
    const num = Number(v);
    if (conv === 's') s = pyStr(v);
    else if (conv === 'r') s = pyRepr(v);
    else if (conv === 'c') s = typeof v === 'number' ? String.fromCodePoint(v) : pyStr(v);
    else if (Number.isNaN(num) || typeof v === 'string') throw new TemplateFailure(`%${conv} format: a real number is required, not ${pyTypeName(v)}`);
    else if (conv === 'd' || conv === 'i') s = String(Math.trunc(num));
    else if (conv === 'x' || conv === 'X' || conv === 'o') s = Math.trunc(num).toString(conv === 'o' ? 8 : 16);
    else if (conv === 'e' || conv === 'E') s = num.toExponential(prec === undefined ? 6 : Number(prec)).replace(/e([+-])(\d)$/, 'e$10$2');
    else s = num.toFixed(prec === undefined ? 6 : Number(prec));
    if (conv === 'X' || conv === 'E') s = s.toUpperCase();
    if (conv === 's' && prec !== undefined) s = s.slice(0, Number(prec));
    if (flags.includes('+') && 'dif'.includes(conv) && num >= 0) s = `+${s}`;
    const w = width === undefined ? 0 : Number(width);
    if (s.length < w) s = flags.includes('-') ? s.padEnd(w) : flags.includes('0') && conv !== 's' ? s.replace(/^([+-]?)/, (sign) => sign + '0'.repeat(w - s.length)) : s.padStart(w);
    return s;
  });
  if (!named && i < args.length) throw new TemplateFailure('not all arguments converted during string formatting');
  return out;
}

/** Jinja's format filter: `fmt % args`, or `fmt % kwargs` for %(name)s. */
function format(fmt: unknown, ...rest: unknown[]): string {
  const { pos, kw } = splitArgs(rest);
  if (pos.length && Object.keys(kw).length) throw new TemplateFailure("can't handle positional and keyword arguments at the same time");
  if (pos.length === 1 && isPlainObject(pos[0])) return percentFormat(pyStr(fmt), [], pos[0]);
  return percentFormat(pyStr(fmt), pos, Object.keys(kw).length ? kw : undefined);
}

/** Python's urllib.parse.unquote_plus. */
function urldecode(v: unknown): string {
  const s = pyStr(v).replace(/\+/g, ' ');
  return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (m) => Buffer.from(m.replace(/%/g, ''), 'hex').toString('utf8'));
}

const URL_PARTS = ['fragment', 'hostname', 'netloc', 'password', 'path', 'port', 'query', 'scheme', 'username'];

/** urls.py urlsplit(): urllib.parse.urlsplit's fields as a dict, or one of them. */
function urlsplit(v: unknown, ...rest: unknown[]): unknown {
  const query = String(arg(splitArgs(rest), 0, 'query', ''));
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s.exec(pyStr(v))!;
  const netloc = m[2] ?? '';
  const at = netloc.lastIndexOf('@');
  const userinfo = at >= 0 ? netloc.slice(0, at) : undefined;
  const hostport = at >= 0 ? netloc.slice(at + 1) : netloc;
  const hp = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostport);
  const host = hp?.[1]?.replace(/^\[|\]$/g, '') ?? '';
  const colon = userinfo?.indexOf(':') ?? -1;
  const parts: Record<string, unknown> = {
    fragment: m[5] ?? '',
    hostname: host === '' ? null : host.toLowerCase(),
    netloc,
    password: userinfo !== undefined && colon >= 0 ? userinfo.slice(colon + 1) : null,
    path: m[3] ?? '',
    port: hp?.[2] ? Number(hp[2]) : null,
    query: m[4] ?? '',
    scheme: (m[1] ?? '').toLowerCase(),
    username: userinfo === undefined ? null : colon >= 0 ? userinfo.slice(0, colon) : userinfo,
  };
  if (!query) return parts;
  if (!URL_PARTS.includes(query)) throw new TemplateFailure(`urlsplit: unknown URL component: ${query}`);
  return parts[query];
}

/** mathstuff.py product(): itertools.product of the value and the other lists. */
function product(v: unknown, ...rest: unknown[]): unknown[][] {
  const lists = [v, ...splitArgs(rest).pos].map((l) => (Array.isArray(l) ? l : typeof l === 'string' ? [...l] : isPlainObject(l) ? Object.keys(l) : []));
  return lists.reduce<unknown[][]>((acc, l) => acc.flatMap((prefix) => l.map((x) => [...prefix, x])), [[]]);
}

/** os.path.expanduser on the controller. */
function expanduser(v: unknown): string {
  const s = pyStr(v);
  if (s === '~' || s.startsWith('~/')) return (process.env.HOME ?? homedir()) + s.slice(1);
  return s;
}

/** os.path.realpath on the controller: symlinks resolved as far as the path exists. */
function realpath(v: unknown): string {
  const abs = resolve(pyStr(v));
  const tail: string[] = [];
  for (let head = abs; ; ) {
    try {
      return resolve(realpathSync(head), ...tail);
    } catch {
      const parent = resolve(head, '..');
      if (parent === head) return abs;
      tail.unshift(head.slice(parent.length).replace(/^\//, ''));
      head = parent;
    }
  }
}

/** community.general.dict: a dict from [key, value] pairs. */
function dictFromPairs(v: unknown): Record<string, unknown> {
  if (!Array.isArray(v)) throw new TemplateFailure(`dict: expected a list of [key, value] pairs, got ${pyTypeName(v)}`);
  const out: Record<string, unknown> = {};
  for (const pair of v) {
    if (!Array.isArray(pair) || pair.length !== 2) throw new TemplateFailure(`dict: expected [key, value] pairs, got ${pyRepr(pair)}`);
    out[pyStr(pair[0])] = pair[1];
  }
  return out;
}

export const moreFilters: Record<string, Fn> = {
  comment, subelements, format, urldecode, urlsplit, product, expanduser, realpath,
  'community.general.dict': dictFromPairs,
};
