// Python's fnmatch.fnmatch on POSIX (fnmatch.translate, 3.11): `*`, `?`, `[seq]`, `[!seq]`, the whole
// name matched, `.` and `/` matched like any other character; anything else is literal.

/** One [...] set as translate() writes it, or undefined when the `[` has no closing `]` (then it is literal). */
function readSet(pat: string, start: number): { re: string; end: number } | undefined {
  let j = start;
  if (pat[j] === '!') j++;
  if (pat[j] === ']') j++;
  while (j < pat.length && pat[j] !== ']') j++;
  if (j >= pat.length) return undefined;
  // JavaScript ends a set at any unescaped ], Python not at one right after [ or [!.
  let stuff = pat.slice(start, j).replace(/\\/g, '\\\\').replace(/]/g, '\\]');
  if (stuff === '') return { re: '(?!)', end: j + 1 };
  if (stuff === '!') return { re: '[\\s\\S]', end: j + 1 };
  if (stuff[0] === '!') stuff = `^${stuff.slice(1)}`;
  else if (stuff[0] === '^' || stuff[0] === '[') stuff = `\\${stuff}`;
  return { re: `[${stuff}]`, end: j + 1 };
}

/** The pattern as a JavaScript RegExp with fnmatch's meaning (a set JavaScript refuses, like `[z-a]`, matches nothing). */
export function fnmatchRegExp(pat: string): RegExp {
  let out = '';
  for (let i = 0; i < pat.length; ) {
    const c = pat[i++]!;
    if (c === '*') {
      if (!out.endsWith('[\\s\\S]*')) out += '[\\s\\S]*';
    } else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      const set = readSet(pat, i);
      if (set === undefined) out += '\\[';
      else {
        out += set.re;
        i = set.end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  try {
    return new RegExp(`^(?:${out})$`);
  } catch {
    return /(?!)/;
  }
}

export const fnmatch = (name: string, pat: string): boolean => fnmatchRegExp(pat).test(name);
