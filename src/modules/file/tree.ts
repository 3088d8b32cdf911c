// file recurse: yes (state directory): mode/owner/group applied to everything under the directory,
// as Ansible's recursive_set_attributes walks it - each entry compared on its own (a symbolic mode
// computed against that entry's mode, X per entry), only what differs changed. Symbolic links inside
// get owner/group (chown -h) and keep their mode; they are not followed.
// The listing is one `find` on the host, NUL-separated and base64 on the wire, so names are data.
import { ProbeParseError } from '../../errors.js';
import { chownSpec } from '../../transports/write-script.js';
import type { Change } from '../types.js';
import { quoteWord } from '../kit/shell-words.js';
import { resolveMode, sameMode, showMode } from '../kit/mode.js';
import type { FileStat, FileType } from '../kit/file-stat.js';

export interface TreeEntry {
  path: string;
  stat: FileStat;
}

/** Inline shell printing `tree:<base64 of find's records>` (empty when the directory is missing). */
export function treeListing(path: string): string {
  return `printf 'tree:'; if [ -d ${quoteWord(path)} ] && [ ! -L ${quoteWord(path)} ]; then find ${quoteWord(path)} -mindepth 1 -printf '%y|%m|%u|%g|%U|%G\\0%p\\0' | base64 -w0; fi; echo`;
}

const TYPES: Record<string, FileType> = { f: 'file', d: 'directory', l: 'link' };

export function parseTree(stdout: string): TreeEntry[] {
  const line = stdout.split('\n').find((l) => l.startsWith('tree:'));
  if (line === undefined) throw new ProbeParseError('file recurse: the listing printed no tree line', stdout);
  const raw = Buffer.from(line.slice(5), 'base64');
  const tokens = raw.toString('utf8').split('\0');
  if (tokens.length % 2 !== 1 || tokens[tokens.length - 1] !== '') throw new ProbeParseError('file recurse: a listing record is cut short', stdout);
  const entries: TreeEntry[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const f = tokens[i].split('|');
    if (f.length !== 6 || !/^[0-7]+$/.test(f[1])) throw new ProbeParseError(`file recurse: unexpected record ${JSON.stringify(tokens[i])}`, stdout);
    if (tokens[i + 1].includes('\uFFFD')) throw new ProbeParseError(`file recurse: a name under the directory is not valid UTF-8: ${JSON.stringify(tokens[i + 1])}`, stdout);
    entries.push({ path: tokens[i + 1], stat: { exists: true, type: TYPES[f[0]] ?? 'other', mode: f[1], owner: f[2], group: f[3], uid: Number(f[4]), gid: Number(f[5]) } });
  }
  return entries;
}

const sameId = (want: string, name?: string, id?: number) => want === name || want === String(id);
const BATCH = 200;

/** One command per chunk of paths, so a large tree never makes one command line too long. */
const chunked = (head: string, paths: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < paths.length; i += BATCH) out.push(`${head} ${paths.slice(i, i + BATCH).map(quoteWord).join(' ')}`);
  return out;
};

/** The changes that bring every entry to the wanted attributes ([] when all have them). */
export function planTree(root: string, entries: TreeEntry[], want: { mode?: string; owner?: string; group?: string; umask?: number }): Change[] {
  const byMode = new Map<string, string[]>();
  const chown: string[] = [];
  for (const e of entries) {
    const isLink = e.stat.type === 'link';
    const mode = isLink ? undefined : resolveMode(want.mode, { ...e.stat, umask: want.umask });
    if (mode !== undefined && !sameMode(e.stat.mode!, mode)) byMode.set(showMode(mode), [...(byMode.get(showMode(mode)) ?? []), e.path]);
    const owner = want.owner !== undefined && !sameId(want.owner, e.stat.owner, e.stat.uid);
    const group = want.group !== undefined && !sameId(want.group, e.stat.group, e.stat.gid);
    if (owner || group) chown.push(e.path);
  }
  const run = [...byMode].flatMap(([mode, paths]) => chunked(`chmod -- ${mode}`, paths));
  const spec = chownSpec(want.owner, want.group);
  if (chown.length > 0 && spec !== undefined) run.push(...chunked(`chown -h -- ${quoteWord(spec)}`, chown));
  if (run.length === 0) return [];
  const count = new Set([...[...byMode.values()].flat(), ...chown]).size;
  const what = [want.mode !== undefined && `mode ${want.mode}`, spec !== undefined && `owner ${spec}`].filter(Boolean).join(', ');
  return [{ summary: `set ${what} on ${count} path(s) under ${root}`, before: `${count} path(s) differ\n`, after: `${what}\n`, run }];
}
