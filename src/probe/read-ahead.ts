// State reads are batched: when a task asks for a probe that is not cached, the runner also reads
// probes it can already compute for the tasks ahead of it, all in one remote exec.
// Any change on the host drops the cache, so a plan never rests on a stale read.
//
// How far ahead to read adapts per host: a re-run that changes nothing reads everything in one
// exec, but on a host being converged every task changes something and a full look-ahead would be
// thrown away after one task, then read again (quadratic: measured 0.5-1 s of wasted host work per
// changed task). So after an invalidation the next batch is only as large as the part of the last
// batch that was actually used, and it grows again (x4) each time a batch is used up unspoiled.
import { buildBatch, splitBatch } from './batch.js';
import { mergeBatch } from './merge.js';
import { TransportError } from '../errors.js';
import type { Probe, ProbeRead } from './types.js';
import { MAX_BATCH, type ProbeHost } from './host.js';
import type { BecomeOptions, Transport } from '../transports/transport.js';

/** Lists the reads the host's upcoming tasks will need (best effort; errors mean "not yet knowable"). */
export type Lookahead<H extends ProbeHost = ProbeHost> = (h: H) => ProbeRead[];

export async function readProbe<S, H extends ProbeHost>(h: H, probe: Probe<S>, lookahead?: Lookahead<H>, become?: BecomeOptions): Promise<S> {
  const { cache, budget } = h.reads;
  let out = cache.get(probe.command);
  if (!out) {
    // The cache was used up without a change spoiling it: read further ahead next time.
    if (cache.size > 0 && budget.used.size >= cache.size) budget.size = Math.min(MAX_BATCH, budget.size * 4);
    const reads: ProbeRead[] = [probe];
    const wanted = new Set([probe.command]);
    if (lookahead && budget.size > 1) {
      for (const r of lookahead(h)) {
        if (reads.length >= budget.size) break;
        if (wanted.has(r.command) || cache.has(r.command)) continue;
        wanted.add(r.command);
        reads.push(r);
      }
    }
    await runProbeBatch(h, reads, become);
    out = cache.get(probe.command);
    if (!out) throw new TransportError(`probe output missing for: ${probe.command}`, h.name);
  }
  budget.used.add(probe.command);
  return probe.parse(out);
}

/**
 * One exec's worth of probe reads: the script (reads many probes make alike merged, merge.ts)
 * and how its output fills the host's cache; `store` returns the reads to make again one by one.
 */
export function probeBatch(reads: readonly ProbeRead[], merge = true): { script: string; store(h: ProbeHost, stdout: string): ProbeRead[] } {
  const batch = mergeBatch(reads, merge);
  return {
    script: buildBatch(batch.probes),
    store(h, stdout) {
      const { outputs, retry } = batch.finish(splitBatch(stdout));
      for (const [command, out] of outputs) h.reads.cache.set(command, out);
      return retry;
    },
  };
}

export async function runProbeBatch(h: ProbeHost, reads: readonly ProbeRead[], become?: BecomeOptions, merge = true): Promise<void> {
  if (!h.transport) throw new TransportError('not connected', h.name);
  const batch = probeBatch(reads, merge);
  const r = await h.transport.exec(batch.script, { become });
  // Not trustworthy (a file changed between stat and cat, a tool failed): those are read one by one.
  const retry = batch.store(h, r.stdout);
  if (retry.length) await runProbeBatch(h, retry, become, false);
}

/** A delegated task's state lives on the delegate: read it there, uncached (the cache is the play host's). */
export async function readProbeOn<S>(transport: Transport, probe: Probe<S>, become?: BecomeOptions): Promise<S> {
  const r = await transport.exec(buildBatch([{ id: '0', command: probe.command }]), { become });
  const out = splitBatch(r.stdout).get('0');
  if (!out) throw new TransportError(`probe output missing for: ${probe.command}`, transport.name);
  return probe.parse(out);
}

export function invalidateProbes(h: ProbeHost): void {
  const { cache, budget } = h.reads;
  if (cache.size === 0) return;
  // Next batch: as many as were useful this time (at least one).
  budget.size = Math.max(1, Math.min(MAX_BATCH, budget.used.size));
  budget.used.clear();
  cache.clear();
}
