// Values that end up inside one line of a line-based config file (sysctl.d, INI files and NM
// keyfiles, lineinfile's line, systemd unit settings): a newline there starts a new setting the
// user never wrote ("1\nkernel.hostname=x"). Such values are refused, naming the character.
import { z } from 'zod';
import { describeChar } from './ifname.js';

/** C0 controls but tab, and DEL: what no line-based format here can hold in one line. */
const LINE_BREAKING = /[\x00-\x08\x0a-\x1f\x7f\u0085\u2028\u2029]/u;
/** In a whole file's text: the same, but newlines (and CR, for CRLF files) are the format's own. */
const IN_TEXT = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/u;

/** Why `value` (`what`: "a sysctl value") cannot go into one line, or undefined when it can. */
export function lineTextProblem(value: string, what: string): string | undefined {
  const m = LINE_BREAKING.exec(value);
  if (!m) return undefined;
  return `contains ${describeChar(m[0])} at character ${m.index + 1}: ${what} must fit on one line (control characters are refused)`;
}

/** Why `text` (a whole file; `what`: "a systemd unit file") holds a control character, or undefined. */
export function fileTextProblem(text: string, what: string): string | undefined {
  const m = IN_TEXT.exec(text);
  if (!m) return undefined;
  const line = text.slice(0, m.index).split('\n').length;
  return `contains ${describeChar(m[0])} on line ${line}: ${what} cannot hold control characters`;
}

/** Refinement for a zod string (after any transform): one line of a config file. */
export const oneLine = (what: string) => (s: string, ctx: z.RefinementCtx) => {
  const p = lineTextProblem(s, what);
  if (p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: p });
};

/** Refinement for a whole file's text. */
export const controlFree = (what: string) => (s: string, ctx: z.RefinementCtx) => {
  const p = fileTextProblem(s, what);
  if (p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: p });
};
