// What community.general 6.6.2's modprobe.py main() does, as a pure plan: load or unload the module
// (judged by /proc/modules and modules.builtin), then the persistent files - a modules-load.d entry,
// the options in modprobe.d - written, or their lines commented out, exactly as the module edits them
// (including its rewrite joining readlines() with '\n', which doubles each line break of a file it edits).
import path from 'node:path';
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change } from '../types.js';
import type { ModprobeArgs } from './args.js';
import type { ModprobeState } from './parse.js';
import { MODULES_LOAD, PARAMETERS_FILES } from './probe.js';
import { pythonSplit } from './shlex.js';

const fail = (msg: string) => new HostwireError('command-failed', msg);

/** modprobe.py module_loaded(): /proc/modules (dashes as underscores), else modules.builtin. */
function moduleLoaded(st: ModprobeState, a: ModprobeArgs): boolean {
  if (!st.loaded) throw fail("[Errno 2] No such file or directory: '/proc/modules'");
  if (st.loaded.includes(a.name.replace(/-/g, '_'))) return true;
  if (!st.builtin) throw fail(`[Errno 2] No such file or directory: '/lib/modules/${st.release}/modules.builtin'`);
  return st.builtin.some((l) => l.trimEnd().endsWith(`/${a.name}.ko`));
}

/** Python's readlines(): each line with its line break. */
const readlines = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

const moduleLine = (a: ModprobeArgs) => new RegExp(`^ *${a.name} *(?:[#;].*)?\\n?$`);
const paramLine = (a: ModprobeArgs) => new RegExp(`^options ${a.name} (\\w+=\\S+) *(?:[#;].*)?\\n?$`);

/** Each file with a line matching `re`, rewritten as the module does (the match commented out). */
function commentOut(files: Map<string, string>, re: RegExp): Change[] {
  const changes: Change[] = [];
  for (const [file, content] of [...files].sort(([x], [y]) => x.localeCompare(y))) {
    const lines = readlines(content);
    if (!lines.some((l) => re.test(l))) continue;
    const after = lines.map((l) => (re.test(l) ? `#${l}` : l)).join('\n');
    changes.push({ summary: `comment out in ${file}`, before: content, after, run: [], write: { path: file, content: after } });
  }
  return changes;
}

function newFile(file: string, content: string, existing: Map<string, string>): Change {
  return { summary: `write ${file}`, before: existing.get(file) ?? '', after: content, run: [], write: { path: file, content, mode: existing.has(file) ? undefined : '0644' } };
}

function persistentChanges(st: ModprobeState, a: ModprobeArgs): Change[] {
  if (a.persistent === 'disabled') return [];
  const missing = !st.loadFiles ? MODULES_LOAD : !st.optionFiles ? PARAMETERS_FILES : undefined;
  if (missing) throw fail(`[Errno 2] No such file or directory: '${missing}'`);
  const loadFiles = st.loadFiles!;
  const optionFiles = st.optionFiles!;
  const persisted = [...loadFiles.values()].some((c) => readlines(c).some((l) => moduleLine(a).test(l)));
  const permanent = new Set<string>();
  for (const c of optionFiles.values()) for (const l of readlines(c)) { const m = paramLine(a).exec(l); if (m) permanent.add(m[1]); }
  const desired = new Set(a.params.split(/\s+/).filter(Boolean));
  const paramsSet = desired.size === permanent.size && [...desired].every((p) => permanent.has(p));
  const changes: Change[] = [];
  if (a.persistent === 'present' && !(persisted && paramsSet)) {
    if (!persisted) changes.push(newFile(path.posix.join(MODULES_LOAD, `${a.name}.conf`), `${a.name}\n`, loadFiles));
    if (!paramsSet) {
      changes.push(...commentOut(optionFiles, paramLine(a)));
      const options = [...a.params.split(/\s+/).filter(Boolean)].map((p) => `options ${a.name} ${p}`).join('\n') + '\n';
      changes.push(newFile(path.posix.join(PARAMETERS_FILES, `${a.name}.conf`), options, optionFiles));
    }
  } else if (a.persistent === 'absent' && (persisted || permanent.size > 0)) {
    if (persisted) changes.push(...commentOut(loadFiles, moduleLine(a)));
    if (permanent.size > 0) changes.push(...commentOut(optionFiles, paramLine(a)));
  }
  return changes;
}

/** The changes modprobe.py makes; it fails (as the module does) on a dry run modprobe refuses. */
export function planModprobe(st: ModprobeState, a: ModprobeArgs): Change[] {
  if (!st.hasModprobe) throw fail('Failed to find required executable "modprobe" in paths: /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
  const changes: Change[] = [];
  const loaded = moduleLoaded(st, a);
  const dryFailed = st.dry && st.dry.rc !== 0 ? `${st.dry.out}\n` : undefined;
  if (a.state === 'present' && !loaded) {
    if (dryFailed) throw fail(dryFailed);
    changes.push({ summary: `load kernel module ${a.name}`, before: 'absent\n', after: 'present\n', run: [shellJoin(['modprobe', '--', a.name, ...pythonSplit(a.params)])] });
  } else if (a.state === 'absent' && loaded) {
    if (dryFailed) throw fail(dryFailed);
    changes.push({ summary: `unload kernel module ${a.name}`, before: 'present\n', after: 'absent\n', run: [shellJoin(['modprobe', '-r', '--', a.name])] });
  }
  return [...changes, ...persistentChanges(st, a)];
}
