// Python's shlex.split(line, comments=True) in POSIX mode: how Ansible's INI plugin cuts a
// host line into the host pattern and its key=value words.

export class ShlexError extends Error {}

export function shlexSplit(line: string): string[] {
  const tokens: string[] = [];
  let token = '';
  let inToken = false;
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      if (inToken) tokens.push(token);
      token = '';
      inToken = false;
      i++;
    } else if (c === '#') {
      break; // comment to end of line, also in the middle of a word
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShlexError('No closing quotation');
      token += line.slice(i + 1, end);
      inToken = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new ShlexError('No closing quotation');
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < n && (line[i + 1] === '"' || line[i + 1] === '\\')) {
          token += line[i + 1];
          i += 2;
          continue;
        }
        token += d;
        i++;
      }
      inToken = true;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= n) throw new ShlexError('No escaped character');
      token += line[i + 1];
      inToken = true;
      i += 2;
    } else {
      token += c;
      inToken = true;
      i++;
    }
  }
  if (inToken) tokens.push(token);
  return tokens;
}
