// Filters real content takes from collections and core.py: community.general.json_query (JMESPath,
// with the jmespath package: the JMESPath project's own JavaScript implementation of the spec Python's
// jmespath implements), password_hash (core.py get_encrypted_password, as passlib hashes) and
// ansible.utils.fact_diff (plugin_utils/fact_diff.py: a unified diff with the whole text as context).
import { randomInt } from 'node:crypto';
import { diffArrays } from 'diff';
import jmespath from 'jmespath';
import { isPlainObject, pyJson, pyStr } from '../py.js';
import { TemplateFailure } from '../undefined.js';
import { arg, splitArgs, type Fn } from './args.js';
import { CRYPT_SCHEMES, SHORT_SCHEMES, cryptHash } from './crypt.js';

function jsonQuery(data: unknown, expr: unknown): unknown {
  try {
    return jmespath.search(data, pyStr(expr));
  } catch (e) {
    throw new TemplateFailure(`JMESPathError in json_query filter plugin: ${(e as Error).message}`);
  }
}

const SALT_CHARS = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A salt as passlib makes one when none is given: `size` characters of the hash64 alphabet. */
export function randomSalt(size: number): string {
  return Array.from({ length: size }, () => SALT_CHARS[randomInt(SALT_CHARS.length)]).join('');
}

/** password_hash(hashtype='sha512', salt=None, salt_size=None, rounds=None, ident=None). */
function passwordHash(secret: unknown, ...rest: unknown[]): string {
  const a = splitArgs(rest);
  const type = pyStr(arg(a, 0, 'hashtype', 'sha512'));
  const scheme = SHORT_SCHEMES[type] ?? type;
  const salt = arg<unknown>(a, 1, 'salt', null);
  const saltSize = arg<unknown>(a, 2, 'salt_size', null);
  const rounds = arg<unknown>(a, 3, 'rounds', null);
  if (!CRYPT_SCHEMES[scheme]) cryptHash('', scheme, '');
  const size = saltSize === null ? CRYPT_SCHEMES[scheme]!.saltSize : Number(saltSize);
  return cryptHash(pyStr(secret), scheme, salt === null || salt === '' ? randomSalt(size) : pyStr(salt), rounds === null ? undefined : Number(rounds));
}

/** CallbackBase._serialize_diff's form of a mapping; a list is one line per item; text stays text. */
function diffText(v: unknown): string {
  if (isPlainObject(v)) return `${pyJson(v, { indent: 4, sortKeys: true })}\n`;
  if (Array.isArray(v)) return `${v.map(pyStr).join('\n')}\n`;
  return v === null || v === undefined ? '' : pyStr(v);
}

/** Python's splitlines() without the ends; a last line without a newline carries diff's marker (as the plugin adds it). */
function pySplitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += '\n\\ No newline at end of file';
  return lines;
}

/** difflib's "start,count" of a hunk side ("start" alone for one line, "start-1,0" for none). */
function range(start: number, count: number): string {
  if (count === 1) return `${start}`;
  return count === 0 ? `${start - 1},0` : `${start},${count}`;
}

function factDiff(before: unknown, ...rest: unknown[]): string[] {
  const a = splitArgs(rest);
  const after = arg<unknown>(a, 0, 'after', undefined);
  const plugin = arg<unknown>(a, 1, 'plugin', {});
  const common = Boolean(arg(a, 2, 'common', false));
  const pvars = isPlainObject(plugin) && isPlainObject(plugin.vars) ? plugin.vars : {};
  let [b, c] = [before, after];
  const skip = Array.isArray(pvars.skip_lines) ? pvars.skip_lines.map((r) => {
    try {
      return new RegExp(`^(?:${pyStr(r)})`);
    } catch (e) {
      throw new TemplateFailure(`Error when using filter plugin 'fact_diff': The regex '${pyStr(r)}', is not valid. The error was ${(e as Error).message}.`);
    }
  }) : [];
  if (skip.length) {
    // Text is split into lines; a dict is iterated as Python iterates it (its keys).
    const lines = (v: unknown): unknown[] => (typeof v === 'string' ? v.split(/\r\n|\r|\n/).filter((l, i, all) => i < all.length - 1 || l !== '') : Array.isArray(v) ? v : isPlainObject(v) ? Object.keys(v) : [v]);
    [b, c] = [lines(b).filter((l) => !skip.some((re) => re.test(pyStr(l)))), lines(c).filter((l) => !skip.some((re) => re.test(pyStr(l))))];
  }
  const [x, y] = [pySplitLines(diffText(b)), pySplitLines(diffText(c))];
  const ops = diffArrays(x, y);
  if (!ops.some((o) => o.added || o.removed)) return [];
  const lines = ['--- before', '+++ after', `@@ -${range(1, x.length)} +${range(1, y.length)} @@`];
  // difflib prints a changed run as its removed lines, then its added lines.
  let removed: string[] = [];
  let added: string[] = [];
  const flush = (): void => {
    lines.push(...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`));
    [removed, added] = [[], []];
  };
  for (const o of ops) {
    if (o.removed) removed.push(...o.value);
    else if (o.added) added.push(...o.value);
    else {
      flush();
      lines.push(...o.value.map((l) => ` ${l}`));
    }
  }
  flush();
  // `common` keeps what is not an added or removed line (the ---/+++ headers go too, as in the plugin).
  const kept = common ? lines.filter((l) => !/^[+-]/.test(l)) : lines;
  // The plugin ends the text with a blank line, which its splitlines() keeps as a last empty item.
  return [...kept.flatMap((l) => l.split('\n')), ''].map((l) => l.replace(/\x1B[@-_][0-?]*[ -/]*[@-~]/g, ''));
}

export const collectionFilters: Record<string, Fn> = {
  json_query: jsonQuery,
  'community.general.json_query': jsonQuery,
  password_hash: passwordHash,
  fact_diff: factDiff,
};
