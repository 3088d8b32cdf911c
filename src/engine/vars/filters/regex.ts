// Python `re` patterns and replacement strings, translated to JavaScript for regex_* filters and tests.
import { TemplateFailure } from '../undefined.js';
import { allMatches } from './bounded-regex.js';

const cache = new Map<string, RegExp>();

/** Compile a Python regex: (?P<n>...) named groups, (?P=n) backrefs, \A and \Z anchors. */
export function pyRegex(pattern: string, flags: { ignorecase?: unknown; multiline?: unknown; global?: boolean } = {}): RegExp {
  const f = `${flags.global ? 'g' : ''}${flags.ignorecase ? 'i' : ''}${flags.multiline ? 'm' : ''}`;
  const key = `${f}/${pattern}`;
  const hit = cache.get(key);
  if (hit) {
    hit.lastIndex = 0;
    return hit;
  }
  let src = pattern.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  src = src.replace(/\\A/g, '^').replace(/\\Z/g, '$(?![\\s\\S])');
  let inline = '';
  src = src.replace(/^\(\?([aiLmsux]+)\)/, (_m, fl: string) => {
    inline = fl.replace(/[aLux]/g, '');
    return '';
  });
  try {
    const re = new RegExp(src, [...new Set(f + inline)].join('') + 'u');
    if (cache.size > 500) cache.clear();
    cache.set(key, re);
    return re;
  } catch {
    try {
      return new RegExp(src, [...new Set(f + inline)].join(''));
    } catch (e) {
      throw new TemplateFailure(`invalid regular expression '${pattern}': ${(e as Error).message}`);
    }
  }
}

/** Number of capture groups in a compiled regex. */
export function groupCount(re: RegExp): number {
  return new RegExp(`${re.source}|`, re.flags.replace('g', '')).exec('')!.length - 1;
}

/** Expand a Python replacement template (\1, \g<1>, \g<name>, \n) for one match. */
export function expandReplacement(tmpl: string, m: RegExpExecArray | string[], groups?: Record<string, string>): string {
  return tmpl.replace(/\\(?:g<(\w+)>|(\d{1,2})|([ntr\\]))/g, (_all, g?: string, d?: string, esc?: string) => {
    if (esc) return esc === 'n' ? '\n' : esc === 't' ? '\t' : esc === 'r' ? '\r' : '\\';
    const ref = g ?? d!;
    if (/^\d+$/.test(ref)) return m[Number(ref)] ?? '';
    return groups?.[ref] ?? '';
  });
}

/** Python's re.sub. */
export function pySub(value: string, pattern: string, repl: string, flags: { ignorecase?: unknown; multiline?: unknown }, count = 0): string {
  const re = pyRegex(pattern, { ...flags, global: true });
  const matches = allMatches(re, value);
  let out = '';
  let last = 0;
  for (const [n, m] of matches.entries()) {
    if (count > 0 && n >= count) break;
    out += value.slice(last, m.index) + expandReplacement(repl, m.map((x) => x ?? ''), m.groups);
    last = m.index + m[0]!.length;
  }
  return out + value.slice(last);
}
