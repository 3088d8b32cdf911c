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
import type { Probe } from './types.js';
import type { ProbeHost } from './host.js';
import type { BecomeOptions, Transport } from '../transports/transport.js';

/** Lists probe commands the host's upcoming tasks will need (best effort; errors mean "not yet knowable"). */
export type Lookahead<H extends ProbeHost = ProbeHost> = (h: H) => string[];

export const MAX_BATCH = 400;

/** Per-host look-ahead budget: how many probes the next batch may read, and how many of the cached were used. */
export interface ProbeBudget {
  size: number;
  used: Set<string>;
}

const budgets = new WeakMap<ProbeHost, ProbeBudget>();

export function probeBudget(h: ProbeHost): ProbeBudget {
  let b = budgets.get(h);
  if (!b) budgets.set(h, (b = { size: MAX_BATCH, used: new Set() }));
  return b;
}

export async function readProbe<S, H extends ProbeHost>(h: H, probe: Probe<S>, lookahead?: Lookahead<H>, become?: BecomeOptions): Promise<S> {
  const budget = probeBudget(h);
  let out = h.probeCache.get(probe.command);
  if (!out) {
    // The cache was used up without a change spoiling it: read further ahead next time.
    if (h.probeCache.size > 0 && budget.used.size >= h.probeCache.size) budget.size = Math.min(MAX_BATCH, budget.size * 4);
    const commands = [probe.command];
    if (lookahead && budget.size > 1) {
      for (const c of lookahead(h)) {
        if (commands.length >= budget.size) break;
        if (!commands.includes(c) && !h.probeCache.has(c)) commands.push(c);
      }
    }
    await runProbeBatch(h, commands, become);
    out = h.probeCache.get(probe.command);
    if (!out) throw new TransportError(`probe output missing for: ${probe.command}`, h.name);
  }
  budget.used.add(probe.command);
  return probe.parse(out);
}

/**
 * One exec's worth of probe reads: the script (reads many probes make alike merged, probe/merge.ts)
 * and how its output fills the host's cache; `store` returns the commands to read again one by one.
 */
export function probeBatch(commands: string[], merge = true): { script: string; store(h: ProbeHost, stdout: string): string[] } {
  const batch = mergeBatch(commands, merge);
  return {
    script: buildBatch(batch.probes),
    store(h, stdout) {
      const { outputs, retry } = batch.finish(splitBatch(stdout));
      for (const [command, out] of outputs) h.probeCache.set(command, out);
      return retry;
    },
  };
}

export async function runProbeBatch(h: ProbeHost, commands: string[], become?: BecomeOptions, merge = true): Promise<void> {
  if (!h.transport) throw new TransportError('not connected', h.name);
  const batch = probeBatch(commands, merge);
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
  if (h.probeCache.size === 0) return;
  const budget = probeBudget(h);
  // Next batch: as many as were useful this time (at least one).
  budget.size = Math.max(1, Math.min(MAX_BATCH, budget.used.size));
  budget.used.clear();
  h.probeCache.clear();
}
