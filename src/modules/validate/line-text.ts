// Values that end up inside one line of a line-based config file (sysctl.d, INI files and NM
// keyfiles, lineinfile's line, systemd unit settings): a newline there starts a new setting the
// user never wrote ("1\nkernel.hostname=x"). Such values are refused, naming the character.
import { z } from 'zod';
import { describeChar } from './ifname.js';

/** C0 controls but tab, and DEL: what no line-based format here can hold in one line. */
const LINE_BREAKING = /[\x00-\x08\x0a-\x1f\x7f\u0085\u2028\u2029]/u;
/** In a whole file's text: the same, but newlines (and CR, for CRLF files) are the format's own. */
const IN_TEXT = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/u;

/** Why `value` cannot go into one line of `format`, or undefined when it can. */
export function lineTextProblem(value: string, format: string): string | undefined {
  const m = LINE_BREAKING.exec(value);
  if (!m) return undefined;
  return `contains ${describeChar(m[0])} at character ${m.index + 1}: a ${format} value must fit on one line (control characters are refused)`;
}

/** Why `text` (a whole file) holds a control character no config file should, or undefined. */
export function fileTextProblem(text: string, format: string): string | undefined {
  const m = IN_TEXT.exec(text);
  if (!m) return undefined;
  const line = text.slice(0, m.index).split('\n').length;
  return `contains ${describeChar(m[0])} on line ${line}: a ${format} cannot hold control characters`;
}

/** Refinement for a zod string (after any transform): one line of `format`. */
export const oneLine = (format: string) => (s: string, ctx: z.RefinementCtx) => {
  const p = lineTextProblem(s, format);
  if (p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: p });
};

/** Refinement for a whole file's text in `format`. */
export const controlFree = (format: string) => (s: string, ctx: z.RefinementCtx) => {
  const p = fileTextProblem(s, format);
  if (p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: p });
};
