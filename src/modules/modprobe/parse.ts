// Pure parser of modprobe's read (probe.ts).
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';
import { need, splitSections } from '../../probe/sections.js';

export interface ModprobeState {
  hasModprobe: boolean;
  release: string;
  /** Names in /proc/modules; undefined when it cannot be read (a container). */
  loaded?: string[];
  /** modules.builtin's lines holding /<name>.ko; undefined when the file cannot be read. */
  builtin?: string[];
  /** The dry run: its exit code and output (stderr folded in). */
  dry?: { rc: number; out: string };
  /** Regular files by path -> content; undefined when the folder is missing (or not asked). */
  loadFiles?: Map<string, string>;
  optionFiles?: Map<string, string>;
}

function files(text: string | undefined, raw: string): Map<string, string> | undefined {
  if (text === undefined || text.trim() === '::nodir') return undefined;
  const out = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^::file (.*)$/.exec(lines[i]);
    if (!m) continue;
    const body = lines[++i] ?? '';
    if (!/^[A-Za-z0-9+/=]*$/.test(body)) throw new ProbeParseError(`modprobe: unreadable content of ${m[1]}`, raw);
    out.set(m[1], Buffer.from(body, 'base64').toString('utf8'));
  }
  return out;
}

export function parseModprobe(out: ProbeOutput): ModprobeState {
  const { sections } = splitSections(out.stdout);
  const bin = need(sections, 'bin', out.stdout);
  const builtin = need(sections, 'builtin', out.stdout);
  const dry = sections.get('dry');
  const loaded = need(sections, 'loaded', out.stdout);
  return {
    hasModprobe: bin.rc === 0,
    release: need(sections, 'release', out.stdout).out.trim(),
    loaded: loaded.rc === 0 ? loaded.out.split('\n').filter(Boolean) : undefined,
    builtin: builtin.rc <= 1 ? builtin.out.split('\n').filter(Boolean) : undefined,
    dry: dry ? { rc: dry.rc, out: dry.out } : undefined,
    loadFiles: files(sections.get('load')?.out, out.stdout),
    optionFiles: files(sections.get('opts')?.out, out.stdout),
  };
}
