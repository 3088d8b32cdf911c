// Serialisation, encoding, path and shell filters (to_json, from_yaml, b64encode, hash, basename, quote).
import { createHash } from 'node:crypto';
import YAML from 'yaml';
import { isPlainObject, pyJson, pyStr } from '../py.js';
import { TemplateFailure } from '../undefined.js';
import { arg, splitArgs, type Fn } from './args.js';

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (isPlainObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortDeep(v[k])]));
  return v;
}

/** PyYAML's default_flow_style=None: collections holding only scalars are written inline. */
/** yaml.dump sorts keys unless sort_keys=False (then insertion order). */
function toYaml(v: unknown, nice: boolean, indent: number, sortKeys = true): string {
  const doc = new YAML.Document(sortKeys ? sortDeep(v) : v);
  if (!nice) {
    YAML.visit(doc, {
      Collection(_k, node) {
        if ((node as YAML.YAMLMap | YAML.YAMLSeq).items.every((it) => {
          const val = YAML.isPair(it) ? it.value : it;
          return !YAML.isCollection(val);
        })) node.flow = true;
      },
    });
  }
  return doc.toString({ indent, indentSeq: false, lineWidth: 0, flowCollectionPadding: false });
}

/** Python's posixpath.dirname / basename. */
export function pyDirname(p: string): string {
  const i = p.lastIndexOf('/') + 1;
  let head = p.slice(0, i);
  if (head && head !== '/'.repeat(head.length)) head = head.replace(/\/+$/, '');
  return head;
}

/** Python's shlex.quote, as Ansible's quote filter uses it. */
export function shellQuote(v: unknown): string {
  const s = v === null || v === undefined ? '' : pyStr(v);
  if (s === '') return "''";
  if (!/[^\w@%+=:,./-]/.test(s)) return s;
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}

function hash(v: unknown, type: unknown = 'sha1'): string {
  const algo = String(type);
  try {
    return createHash(algo).update(pyStr(v), 'utf8').digest('hex');
  } catch {
    throw new TemplateFailure(`unsupported hash type '${algo}'`);
  }
}

export const dataFilters: Record<string, Fn> = {
  to_json: (v: unknown, ...rest: unknown[]) => {
    const a = splitArgs(rest);
    const indent = a.kw.indent as number | undefined;
    return pyJson(v, { indent, sortKeys: Boolean(a.kw.sort_keys), ensureAscii: a.kw.ensure_ascii !== false });
  },
  to_nice_json: (v: unknown, ...rest: unknown[]) => {
    const a = splitArgs(rest);
    return pyJson(v, { indent: Number(arg(a, 0, 'indent', 4)), sortKeys: arg<unknown>(a, 1, 'sort_keys', true) !== false, ensureAscii: a.kw.ensure_ascii !== false });
  },
  from_json: (v: unknown) => {
    try {
      return JSON.parse(pyStr(v));
    } catch (e) {
      throw new TemplateFailure(`from_json: ${(e as Error).message}`);
    }
  },
  to_yaml: (v: unknown, ...rest: unknown[]) => toYaml(v, false, Number(arg(splitArgs(rest), 99, 'indent', 2)), splitArgs(rest).kw.sort_keys !== false),
  to_nice_yaml: (v: unknown, ...rest: unknown[]) => toYaml(v, true, Number(arg(splitArgs(rest), 0, 'indent', 4)), splitArgs(rest).kw.sort_keys !== false),
  from_yaml: (v: unknown) => (typeof v === 'string' ? YAML.parse(v) : v),
  from_yaml_all: (v: unknown) => (typeof v === 'string' ? YAML.parseAllDocuments(v).map((d) => d.toJS()) : v),
  b64encode: (v: unknown) => Buffer.from(pyStr(v), 'utf8').toString('base64'),
  b64decode: (v: unknown) => Buffer.from(pyStr(v), 'base64').toString('utf8'),
  hash,
  checksum: (v: unknown) => hash(v, 'sha1'),
  md5: (v: unknown) => hash(v, 'md5'),
  sha1: (v: unknown) => hash(v, 'sha1'),
  basename: (v: unknown) => pyStr(v).slice(pyStr(v).lastIndexOf('/') + 1),
  dirname: (v: unknown) => pyDirname(pyStr(v)),
  quote: shellQuote,
};
