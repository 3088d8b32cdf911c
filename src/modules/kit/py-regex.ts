// Python `re` patterns as module arguments (blockinfile's insertafter/insertbefore, replace's regexp),
// translated to JavaScript with Python's meaning: (?P<n>...) and (?P=n), \A and \Z, leading inline
// flags (?imsx), and ^ $ . exactly as Python reads them (only \n ends a line; $ also matches before a
// final newline) - JavaScript's own ^ $ . also stop at \r and \u2028, which would split CRLF lines.
import { z } from 'zod';

export interface PyPattern {
  re: RegExp;
  /** re.MULTILINE was set (inline (?m) or by the caller). */
  multiline: boolean;
}

export interface PyPatternOptions {
  global?: boolean;
  /** Python's re.MULTILINE / re.DOTALL given by the module (replace compiles with MULTILINE). */
  multiline?: boolean;
  dotall?: boolean;
  /** Python's start and end of the match of each named group (RegExp's d flag: match.indices). */
  indices?: boolean;
  /**
   * Match as Python does a bytes pattern on bytes (the file read as bytes): the text is handled as
   * latin1, one character per byte.
   */
  bytes?: boolean;
}

const START = '(?<![\\s\\S])';
const END = '(?![\\s\\S])';

/** The pattern body with Python's ^ $ . \A \Z spelled out; character classes are copied whole. */
function translate(src: string, multiline: boolean, dotall: boolean): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      const e = src[i + 1];
      out += e === 'A' ? START : e === 'Z' ? END : src.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      // `]` right after `[` or `[^` is a member, not the end.
      let j = i + 1;
      if (src[j] === '^') j++;
      if (src[j] === ']') j++;
      while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j;
    } else if (c === '^') out += multiline ? `(?:${START}|(?<=\\n))` : START;
    else if (c === '$') out += multiline ? `(?=\\n|${END})` : `(?=\\n?${END})`;
    else if (c === '.') out += dotall ? '[\\s\\S]' : '[^\\n]';
    else out += c;
  }
  return out;
}

export function pyPattern(pattern: string, opts: PyPatternOptions = {}): PyPattern {
  let inline = '';
  let src = pattern.replace(/^\(\?([aiLmsux]+)\)/, (_m, fl: string) => {
    if (fl.includes('x')) throw new SyntaxError('verbose patterns ((?x)) are not supported');
    inline = fl;
    return '';
  });
  const multiline = Boolean(opts.multiline) || inline.includes('m');
  src = translate(src, multiline, Boolean(opts.dotall) || inline.includes('s'));
  src = src.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  // No u flag: Python accepts escaped punctuation (\- \# \ ) that the u flag refuses.
  const flags = `${opts.global ? 'g' : ''}${opts.indices ? 'd' : ''}${inline.includes('i') ? 'i' : ''}`;
  const source = opts.bytes ? Buffer.from(src, 'utf8').toString('latin1') : src;
  return { re: new RegExp(source, flags), multiline };
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };

/**
 * Python's re.sub replacement template for one match: \1..\99 and \g<n>/\g<name> (an unmatched group
 * gives ''), \n \t \r \f \v \a \b \\ and \0 octal escapes; an unknown letter escape is an error, as in
 * Python, any other backslash stays.
 */
export function expandTemplate(template: string, m: (string | undefined)[] & { groups?: Record<string, string> }): string {
  return template.replace(/\\(?:g<([^>]*)>|0([0-7]{0,2})|([1-9][0-9]?)|([\s\S])|$)/g, (all, g?: string, oct?: string, num?: string, ch?: string) => {
    if (oct !== undefined) return String.fromCharCode(parseInt(`0${oct}`, 8));
    const ref = g ?? num;
    if (ref !== undefined) {
      const v = /^\d+$/.test(ref) ? (Number(ref) < m.length ? m[Number(ref)] : null) : m.groups && ref in m.groups ? m.groups[ref] : null;
      if (v === null) throw new SyntaxError(`invalid group reference ${ref} in the replacement`);
      return v ?? '';
    }
    if (ch === undefined) throw new SyntaxError('the replacement ends with a lone backslash');
    if (ESCAPES[ch] !== undefined) return ESCAPES[ch]!;
    if (/[A-Za-z]/.test(ch)) throw new SyntaxError(`bad escape \\${ch} in the replacement`);
    return all;
  });
}

/** A zod string that must compile as a Python pattern (the error names what JavaScript said). */
export const pyRegexArg = z.string().superRefine((p, ctx) => {
  try {
    pyPattern(p, { bytes: true });
  } catch (e) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a valid regular expression (${(e as Error).message})` });
  }
});
