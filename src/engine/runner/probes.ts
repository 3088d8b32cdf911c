// State reads are batched: when a task asks for a probe that is not cached, the runner also reads
// every probe it can already compute for the tasks ahead of it, all in one remote exec.
// Any change on the host drops the cache, so a plan never rests on a stale read.
import { buildBatch, splitBatch } from '../../facts/index.js';
import { TransportError } from '../errors.js';
import type { Probe, ProbeOutput } from '../../modules/types.js';
import type { HostState } from './host-state.js';
import type { BecomeOptions } from '../../transports/transport.js';

/** Lists probe commands the host's upcoming tasks will need (best effort; errors mean "not yet knowable"). */
export type Lookahead = (h: HostState) => string[];

const MAX_BATCH = 400;

export async function readProbe<S>(h: HostState, probe: Probe<S>, lookahead?: Lookahead, become?: BecomeOptions): Promise<S> {
  let out = h.probeCache.get(probe.command);
  if (!out) {
    const commands = [probe.command];
    if (lookahead) {
      for (const c of lookahead(h)) {
        if (commands.length >= MAX_BATCH) break;
        if (!commands.includes(c) && !h.probeCache.has(c)) commands.push(c);
      }
    }
    await runProbeBatch(h, commands, become);
    out = h.probeCache.get(probe.command);
    if (!out) throw new TransportError(`probe output missing for: ${probe.command}`, h.name);
  }
  return probe.parse(out);
}

export async function runProbeBatch(h: HostState, commands: string[], become?: BecomeOptions): Promise<void> {
  if (!h.transport) throw new TransportError('not connected', h.name);
  const ids = commands.map((command, i) => ({ id: String(i), command }));
  const r = await h.transport.exec(buildBatch(ids), { become });
  const parts = splitBatch(r.stdout);
  ids.forEach(({ id, command }) => {
    const p: ProbeOutput | undefined = parts.get(id);
    if (p) h.probeCache.set(command, p);
  });
}

export function invalidateProbes(h: HostState): void {
  h.probeCache.clear();
}
