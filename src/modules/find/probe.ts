// find's reads. The walk: one inline snippet per play (batched) printing the host's clock and, per
// path, either `notdir` or every entry under it as GNU find sees it with lstat (os.walk's view: the
// type, the type a symlink points to, ids and names, size, inode, device, links, times), NUL-separated
// and base64-encoded so no file name can forge a line, plus what find said on stderr (an unreadable
// folder). The details: sha1 and content of the few files a match still depends on (get_checksum,
// contains), read after the walk chose them.
import { inlineProbe } from '../../probe/batch.js';
import { ProbeParseError } from '../../errors.js';
import type { Probe, ProbeOutput } from '../../probe/types.js';
import { quoteWord } from '../kit/shell-words.js';

export interface WalkRequest {
  paths: string[];
  recurse: boolean;
  depth?: number;
  follow: boolean;
}

// find -printf fields: lstat type, followed type, permission bits, uid, gid, user, group, size, inode,
// device, links, atime, mtime, ctime, path.
const FORMAT = '%y\\0%Y\\0%m\\0%U\\0%G\\0%u\\0%g\\0%s\\0%i\\0%D\\0%n\\0%A@\\0%T@\\0%C@\\0%p\\0';
export const FIELDS = 15;

/** The shell word of a path with Python's expanduser for `~` and `~/...` (the rest quoted). */
export function pathWord(p: string): string {
  if (p === '~') return '"$HOME"';
  if (p.startsWith('~/')) return `"$HOME"${quoteWord(p.slice(1))}`;
  return quoteWord(p);
}

/** How deep GNU find goes: the entries os.walk counts (one level below the deepest folder it walks). */
function maxDepth(r: WalkRequest): string {
  if (!r.recurse) return ' -maxdepth 1';
  if (!r.depth) return '';
  return ` -maxdepth ${Math.max(1, r.depth + 1)}`;
}

export function walkCommand(r: WalkRequest): string {
  // -H: a path that is itself a symlink to a folder is walked (os.walk's scandir follows its top).
  const traverse = `find ${r.follow ? '-L' : '-H'} "$s" -mindepth 1${maxDepth(r)} -print0`;
  const restat = `xargs -0r sh -c 'exec find -P "$@" -maxdepth 0 -printf "$0"' '${FORMAT}'`;
  const perPath = r.paths.map((p, i) => {
    const word = pathWord(p);
    // A relative start gets ./ so that no path can read as a find option; the parser strips it.
    const start = p.startsWith('/') || p.startsWith('~') ? '"$f"' : '"./$f"';
    return [
      `f=${word}; s=${start}; echo '::path ${i}'`,
      `if [ -d "$f" ]; then printf 'walk:'; { e=$( { LC_ALL=C ${traverse} 2>&4 | ${restat} 2>/dev/null | base64 -w0 >&3; } 4>&1 ); } 3>&1`,
      `printf '\\nstart:'; printf '%s' "$s" | base64 -w0; printf '\\nerr:'; printf '%s' "$e" | base64 -w0; echo; else echo notdir; fi`,
    ].join('; ');
  });
  return inlineProbe(`{ printf 'now:'; date +%s.%N; printf 'home:'; printf '%s' "$HOME" | base64 -w0; echo; ${perPath.join('; ')}; }`);
}

export type PathRead = { kind: 'notdir' } | { kind: 'walk'; start: string; records: string[][]; errors: string[] };

export interface WalkRead {
  now: number;
  home: string;
  paths: PathRead[];
}

const b64 = (s: string) => Buffer.from(s, 'base64');

function readPath(lines: string[], raw: string): PathRead {
  if (lines[0] === 'notdir') return { kind: 'notdir' };
  const get = (key: string) => {
    const l = lines.find((x) => x.startsWith(`${key}:`));
    if (l === undefined) throw new ProbeParseError(`find probe: no ${key} line`, raw);
    return b64(l.slice(key.length + 1));
  };
  const fields = get('walk').toString('utf8').split('\0');
  fields.pop();
  if (fields.length % FIELDS !== 0) throw new ProbeParseError(`find probe: ${fields.length} fields is not a whole number of entries`, raw);
  const records: string[][] = [];
  for (let i = 0; i < fields.length; i += FIELDS) records.push(fields.slice(i, i + FIELDS));
  const errors = get('err').toString('utf8').split('\n').filter((l) => l !== '');
  return { kind: 'walk', start: get('start').toString('utf8'), records, errors };
}

export function parseWalk(out: ProbeOutput, count: number): WalkRead {
  const lines = out.stdout.split('\n');
  const now = lines.find((l) => l.startsWith('now:'));
  const home = lines.find((l) => l.startsWith('home:'));
  if (now === undefined || home === undefined) throw new ProbeParseError('find probe: no clock or home line', out.stdout);
  const paths: PathRead[] = [];
  for (let i = 0; i < count; i++) {
    const at = lines.indexOf(`::path ${i}`);
    if (at < 0) throw new ProbeParseError(`find probe: path ${i} missing`, out.stdout);
    const end = lines.indexOf(`::path ${i + 1}`);
    paths.push(readPath(lines.slice(at + 1, end < 0 ? undefined : end), out.stdout));
  }
  return { now: Number(now.slice(4)), home: b64(home.slice(5)).toString('utf8'), paths };
}

export const walkProbe = (r: WalkRequest): Probe<WalkRead> => ({ command: walkCommand(r), parse: (out) => parseWalk(out, r.paths.length) });

export interface DetailRead {
  sha1?: string;
  /** The file's bytes; undefined when it could not be read. */
  content?: Buffer;
}

/** sha1 and/or content of each chosen file, in order. */
export function detailsCommand(files: { path: string; sha1: boolean; content: boolean }[]): string {
  const parts = files.map((f, i) => {
    const out = [`f=${quoteWord(f.path)}`];
    if (f.sha1) out.push(`if h=$(sha1sum < "$f"); then printf 'sha1 ${i}:%s\\n' "$h"; fi`);
    if (f.content) out.push(`if c=$(base64 -w0 < "$f"); then printf 'content ${i}:%s\\n' "$c"; fi`);
    return out.join('; ');
  });
  return inlineProbe(`{ ${parts.join('; ')}; }`);
}

export function parseDetails(out: ProbeOutput, count: number): DetailRead[] {
  const reads: DetailRead[] = Array.from({ length: count }, () => ({}));
  for (const line of out.stdout.split('\n')) {
    const m = /^(sha1|content) (\d+):(.*)$/.exec(line);
    const read = m ? reads[Number(m[2])] : undefined;
    if (!m || !read) continue;
    if (m[1] === 'sha1') read.sha1 = m[3]!.slice(0, 40);
    else read.content = b64(m[3]!);
  }
  return reads;
}

export const detailsProbe = (files: { path: string; sha1: boolean; content: boolean }[]): Probe<DetailRead[]> => ({
  command: detailsCommand(files),
  parse: (out) => parseDetails(out, files.length),
});
