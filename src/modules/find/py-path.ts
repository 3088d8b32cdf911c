// posixpath.join and posixpath.normpath as find.py builds each result's path with them.

export function posixJoin(a: string, b: string): string {
  if (b.startsWith('/')) return b;
  return a === '' || a.endsWith('/') ? a + b : `${a}/${b}`;
}

export function posixNormpath(p: string): string {
  if (p === '') return '.';
  // POSIX keeps exactly two leading slashes; one or three and more become one.
  const lead = p.startsWith('/') ? (p.startsWith('//') && !p.startsWith('///') ? 2 : 1) : 0;
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..' || (lead === 0 && out.length === 0) || (out.length > 0 && out[out.length - 1] === '..')) out.push(part);
    else if (out.length > 0) out.pop();
  }
  const joined = '/'.repeat(lead) + out.join('/');
  return joined === '' ? '.' : joined;
}

/** str.count(os.sep) as find.py's depth sum uses it. */
export const slashes = (s: string): number => s.split('/').length - 1;
