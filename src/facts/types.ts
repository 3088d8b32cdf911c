// A fact is a probe with an id: one read-only shell command plus a pure parser of its output.
import { ProbeParseError } from '../errors.js';
import type { Probe, ProbeOutput } from '../probe/types.js';

export interface FactProbe<T> extends Probe<T> {
  /** Marker id in the batched script; also names the fact in error messages. */
  id: string;
}

/** rc 127 / 126: the tool is not installed (or not executable) on the host. */
export function toolMissing(out: ProbeOutput): boolean {
  return out.rc === 127 || out.rc === 126;
}

/** The single line a simple command prints, or a ProbeParseError naming the command. */
export function oneLine(what: string, out: ProbeOutput): string {
  const v = out.stdout.trim();
  if (out.rc !== 0 || !v || v.includes('\n')) throw new ProbeParseError(`unexpected ${what} output (rc=${out.rc})`, out.stdout);
  return v;
}
