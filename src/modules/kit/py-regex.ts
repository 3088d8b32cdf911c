// Python `re` patterns as module arguments (blockinfile's insertafter/insertbefore, replace's regexp):
// translated to JavaScript - (?P<n>...) and (?P=n), \A and \Z, leading inline flags (?imsx) - and
// checked when the arguments are, so a bad pattern is an argument error naming it.
import { z } from 'zod';

export interface PyPattern {
  re: RegExp;
  /** re.MULTILINE was set inline ((?m)): blockinfile then searches the whole text. */
  multiline: boolean;
}

/**
 * `bytes`: match as Python does a bytes pattern on bytes (the modules read files as bytes): the
 * text is handled as latin1, one character per byte, and the pattern compiled without the u flag.
 */
export function pyPattern(pattern: string, opts: { global?: boolean; bytes?: boolean } = {}): PyPattern {
  let inline = '';
  let src = pattern.replace(/^\(\?([aiLmsux]+)\)/, (_m, fl: string) => {
    if (fl.includes('x')) throw new SyntaxError('verbose patterns ((?x)) are not supported');
    inline = fl.replace(/[aLu]/g, '');
    return '';
  });
  src = pythonDollar(src, inline.includes('m'));
  src = src.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  src = src.replace(/\\A/g, '^').replace(/\\Z/g, '$(?![\\s\\S])');
  const flags = [...new Set(`${opts.global ? 'g' : ''}${inline}${opts.bytes ? '' : 'u'}`)].join('');
  const source = opts.bytes ? Buffer.from(src, 'utf8').toString('latin1') : src;
  return { re: new RegExp(source, flags), multiline: inline.includes('m') };
}

/**
 * Python's `$` outside MULTILINE matches at the end and also before a final newline (a line read with
 * its newline, as blockinfile and replace read them); JavaScript's only at the end.
 */
function pythonDollar(src: string, multiline: boolean): string {
  if (multiline) return src;
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      out += src.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      // A character class, copied whole: `]` right after `[` or `[^` is a member, not the end.
      let j = i + 1;
      if (src[j] === '^') j++;
      if (src[j] === ']') j++;
      while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j;
    } else out += c === '$' ? '(?=\\n?$)' : c;
  }
  return out;
}

/** A zod string that must compile as a Python pattern (the error names what JavaScript said). */
export const pyRegexArg = z.string().superRefine((p, ctx) => {
  try {
    pyPattern(p, { bytes: true });
  } catch (e) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a valid regular expression (${(e as Error).message})` });
  }
});
