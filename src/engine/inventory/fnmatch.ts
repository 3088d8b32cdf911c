// Python's fnmatch.translate(): `*` matches anything (dots included), `?` one character,
// `[seq]` / `[!seq]` a class; matching is case-sensitive and whole-string.

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

export function fnmatchToRegExp(pattern: string): RegExp {
  let re = '';
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i++]!;
    if (c === '*') {
      if (!re.endsWith('[\\s\\S]*')) re += '[\\s\\S]*';
    } else if (c === '?') {
      re += '[\\s\\S]';
    } else if (c === '[') {
      let j = i;
      if (j < n && pattern[j] === '!') j++;
      if (j < n && pattern[j] === ']') j++;
      while (j < n && pattern[j] !== ']') j++;
      if (j >= n) {
        re += '\\[';
        continue;
      }
      let stuff = pattern.slice(i, j);
      i = j + 1;
      const negate = stuff.startsWith('!');
      if (negate) stuff = stuff.slice(1);
      if (!stuff) {
        re += negate ? '[\\s\\S]' : '(?!)';
        continue;
      }
      // Keep ranges (a-z), escape everything else inside the class.
      const body = stuff.replace(/\\/g, '\\\\').replace(/[\]^[]/g, '\\$&');
      re += `[${negate ? '^' : ''}${body}]`;
    } else {
      re += escapeRe(c);
    }
  }
  return new RegExp(`^(?:${re})$`);
}

export function hasGlob(s: string): boolean {
  return /[*?[]/.test(s);
}
