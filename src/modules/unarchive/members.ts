// The archive's members as GNU tar lists them (--list --verbose --full-time --numeric-owner
// --quoting-style=c: every name a C string, so any byte in a name is data), and the refusal of members
// that would land outside dest. Archives are untrusted input: an absolute name, a '..' component, or a
// link whose target leaves dest is refused before anything is unpacked (GNU tar itself strips a
// leading '/' and skips names with '..'; ansible-core 2.14 then unpacks the rest).
import { HostwireError } from '../../errors.js';

export interface Member {
  /** The name as tar would write it (after extra_opts' transformations), decoded. */
  name: string;
  type: string;
  /** A symbolic or hard link's target. */
  target?: string;
}

const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
const ESC: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34, '?': 63, "'": 39 };

/** A C string's body (quoting-style=c) as bytes, read as UTF-8 (Python's escape_decode, then to_native). */
export function decodeC(body: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += oct[0].length;
    } else {
      bytes.push(ESC[body[i + 1]!] ?? body.charCodeAt(i + 1));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** One member per listing line that names one (`-rw-r--r-- 0/0 7 2024-01-02 03:04:05 "a" -> "b"`). */
export function parseListing(out: string): Member[] {
  return out.split('\n').flatMap((line) => {
    const names = [...line.matchAll(QUOTED)].map((m) => decodeC(m[1]!));
    if (!/^[-dlhcbpsC]/.test(line) || names.length === 0) return [];
    // A folder is listed as tar --list names it: with a trailing '/' (also a transformed name), '' as ''.
    const name = line[0] === 'd' && names[0] !== '' && !names[0]!.endsWith('/') ? `${names[0]}/` : names[0]!;
    return [{ name, type: line[0]!, ...(names.length > 1 ? { target: names[1] } : {}) }];
  });
}

/** Where `rel` lands under dest, lexically; undefined when it climbs out with '..'. */
function inside(rel: string): string[] | undefined {
  const parts: string[] = [];
  for (const p of rel.split('/')) {
    if (p === '' || p === '.') continue;
    if (p !== '..') parts.push(p);
    else if (parts.pop() === undefined) return undefined;
  }
  return parts;
}

/** Why a member may not be unpacked into dest, or undefined. */
export function unsafeMember(m: Member): string | undefined {
  if (m.name.startsWith('/')) return `member ${JSON.stringify(m.name)} is an absolute path`;
  if (m.name.split('/').includes('..')) return `member ${JSON.stringify(m.name)} has a '..' component`;
  if (m.target === undefined) return undefined;
  if (m.target.startsWith('/')) return `${m.type === 'h' ? 'hard link' : 'symbolic link'} ${JSON.stringify(m.name)} points to the absolute path ${JSON.stringify(m.target)}`;
  // A hard link's target is a member name; a symbolic link's is relative to the link's own folder.
  const base = m.type === 'h' ? '' : m.name.split('/').slice(0, -1).join('/');
  if (inside(`${base}/${m.target}`) === undefined) return `link ${JSON.stringify(m.name)} points outside dest (${JSON.stringify(m.target)})`;
  return undefined;
}

export function refuseUnsafe(members: Member[], src: string): void {
  const bad = members.map(unsafeMember).filter((w): w is string => w !== undefined);
  if (bad.length) throw new HostwireError('bad-input', `refusing to unpack ${src}: ${bad.slice(0, 5).join('; ')}${bad.length > 5 ? ` (and ${bad.length - 5} more)` : ''} - an archive must keep every member inside dest`);
}
