// Joins probes into ONE shell script so a host costs one exec per play: each probe runs in a
// subshell (or, marked inline, a brace group) between markers, `@@probe <id>` before and `@@rc <status>` after, stderr discarded.
// The rc marker is always preceded by a newline we add, so output without a trailing newline
// splits back exactly.
import type { ProbeOutput } from './types.js';

export interface BatchProbe {
  id: string;
  command: string;
}

const ID = /^[A-Za-z0-9_.:-]+$/;

// A probe that only reads and sets no state but its own variables (no exit, cd, set, exec, traps)
// may run in the batch's shell instead of a subshell: one fork less per probe (~1 ms of host CPU,
// which a fleet re-run pays hundreds of times per host). The mark is a shell comment, so the
// command stays the same shell text wherever it runs.
const INLINE = '#hw:inline\n';

export function inlineProbe(command: string): string {
  return command.startsWith(INLINE) ? command : INLINE + command;
}

export function buildBatch(probes: readonly BatchProbe[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const p of probes) {
    if (!ID.test(p.id)) throw new Error(`probe id ${JSON.stringify(p.id)} must match ${ID}`);
    if (seen.has(p.id)) throw new Error(`duplicate probe id ${p.id}`);
    seen.add(p.id);
    const [open, close] = p.command.startsWith(INLINE) ? ['{', '}'] : ['(', ')'];
    parts.push(`echo '@@probe ${p.id}'\n${open}\n${p.command}\n${close} 2>/dev/null </dev/null\nprintf '\\n@@rc %s\\n' "$?"`);
  }
  return parts.join('\n');
}

const BLOCK = /^@@probe (\S+)\n([\s\S]*?)\n@@rc (\d+)$/gm;

/** Output per probe id; a probe cut off before its rc marker (the batch died) is absent. */
export function splitBatch(stdout: string): Map<string, ProbeOutput> {
  const out = new Map<string, ProbeOutput>();
  for (const m of stdout.matchAll(BLOCK)) out.set(m[1]!, { stdout: m[2]!, rc: Number(m[3]) });
  return out;
}
