// Interface names as the kernel accepts them (net/core/dev.c dev_valid_name): 1-15 bytes, not '.'
// or '..', no '/', ':' or whitespace. Control characters are refused too: the kernel takes them,
// but every tool that prints them (ip -j, nmcli -t) then prints output no parser can trust.
import { z } from 'zod';

/** Why `name` cannot be an interface name, or undefined when it can. */
export function ifnameProblem(name: string): string | undefined {
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes === 0) return 'is empty';
  if (bytes > 15) return `has ${bytes} bytes (the kernel allows 15)`;
  if (name === '.' || name === '..') return `is '${name}'`;
  const bad = /[/:\s\x00-\x1f\x7f]/u.exec(name);
  if (bad) return `contains ${describeChar(bad[0])} (not allowed in an interface name)`;
  return undefined;
}

/** A readable name for one character: `'/'`, `a newline (\n)`, `U+0001`. */
export function describeChar(c: string): string {
  const named: Record<string, string> = { '\n': 'a newline (\\n)', '\r': 'a carriage return (\\r)', '\t': 'a tab (\\t)', ' ': 'a space', '\0': 'a NUL byte' };
  if (named[c]) return named[c];
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f || /\s/u.test(c) ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

/** zod refinement: an interface name (`also` lists other accepted words, like nmcli's '*'). */
export const checkIfname = (also: string[] = []) => (s: string, ctx: z.RefinementCtx) => {
  const p = also.includes(s) ? undefined : ifnameProblem(s);
  if (p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected an interface name: 1-15 bytes, no '/', ':', whitespace or control characters (this one ${p})` });
};

/** zod schema of an interface name argument. */
export const ifname = z.string().superRefine(checkIfname());
