// Ansible's `validate` (copy, template): a command run on the new file before it replaces the old.
// Ansible formats the path into the text (`validate % tmp`) and runs it without a shell (shlex split),
// so here the text is split as a shell would split it and every word is quoted; `%s` becomes the temp
// file, "$t" in the verified write (transports/write-script.ts), and `%%` a literal `%`. Nothing in the
// value is ever read by the shell: a `;` or `$(...)` in it is a word of the command, as under Ansible.
import { z } from 'zod';
import { quoteWord, splitWords } from './shell-words.js';

/** The word with `%s` as the temp file and `%%` as `%`, quoted for the shell. */
function wordWithTemp(word: string): string {
  const parts = word.split(/(%%|%s)/);
  return parts.map((p) => (p === '%s' ? '"$t"' : p === '%%' ? '%' : p === '' ? '' : quoteWord(p))).join('') || "''";
}

export function validateCommand(validate: string): string {
  return splitWords(validate).map(wordWithTemp).join(' ');
}

/** The argument: text holding %s (Ansible: "validate must contain %%s: ..."), splittable as a command line. */
export const validateArg = z
  .string()
  .refine((v) => v.includes('%s'), (v) => ({ message: `validate must contain %s: ${v}` }))
  .superRefine((v, ctx) => {
    try {
      if (splitWords(v).length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected a command' });
    } catch (e) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a command line: ${(e as Error).message}` });
    }
  });
