// Reads that many probes of one batch make the same way (a file's stat, a unit's `systemctl show`,
// an `ovs-vsctl` query) are made once for all of them: one process instead of one per probe, each
// process costing the host ~1.3 ms (x tasks x hosts on a fleet re-run). A probe says it is such a
// read by carrying its merge information (kind + item, built by mergeableRead()); its command still
// works alone. The batch replaces two or more reads of one kind by the kind's merged script and
// splits its output back into exactly what each command prints alone. The kinds live in kinds/,
// one file each: a new kind is a MergeKind (script + split) and a function building its single
// read with mergeableRead(); test it by comparing its split with what each read prints alone.
import { inlineProbe, type BatchProbe } from './batch.js';
import type { MergeInfo, MergeKind, ProbeOutput, ProbeRead } from './types.js';

/** A read of `item` by `command` (which reads it alone) that a batch may merge with others of `kind`. */
export function mergeableRead<T>(command: string, kind: MergeKind<T>, item: T, opts: { before?: string } = {}): ProbeRead & { merge: MergeInfo } {
  const merge: MergeInfo = { kind: kind as MergeKind<unknown>, item, ...(opts.before !== undefined ? { before: opts.before } : {}) };
  return { command, merge };
}

export interface MergedBatch {
  probes: BatchProbe[];
  /** Outputs per original command; `retry` lists the reads whose merged read was not trustworthy. */
  finish(parts: Map<string, ProbeOutput>): { outputs: Map<string, ProbeOutput>; retry: ProbeRead[] };
}

interface Group {
  kind: MergeKind<unknown>;
  members: { read: ProbeRead; m: MergeInfo }[];
}

function groupByKind(reads: readonly ProbeRead[], merge: boolean): Group[] {
  const groups = new Map<MergeKind<unknown>, Group>();
  for (const read of reads) {
    const m = merge ? read.merge : undefined;
    if (!m) continue;
    const g = groups.get(m.kind) ?? { kind: m.kind, members: [] };
    g.members.push({ read, m });
    groups.set(m.kind, g);
  }
  return [...groups.values()].filter((g) => g.members.length >= 2);
}

/** The batch for `reads`, groups of two or more mergeable reads of one kind replaced by one script each. */
export function mergeBatch(reads: readonly ProbeRead[], merge = true): MergedBatch {
  const merged = groupByKind(reads, merge);
  const inMerge = new Set(merged.flatMap((g) => g.members.map((x) => x.read)));
  const plain = reads.filter((r) => !inMerge.has(r));
  const probes: BatchProbe[] = plain.map((r, i) => ({ id: String(i), command: r.command }));
  merged.forEach((g, gi) => {
    probes.push({ id: `m${gi}`, command: g.kind.script(g.members.map((x) => x.m.item)) });
    g.members.forEach(({ m }, i) => m.before && probes.push({ id: `m${gi}b${i}`, command: inlineProbe(m.before) }));
  });
  return {
    probes,
    finish(parts) {
      const outputs = new Map<string, ProbeOutput>();
      const retry: ProbeRead[] = [];
      plain.forEach((r, i) => {
        const p = parts.get(String(i));
        if (p) outputs.set(r.command, p);
      });
      merged.forEach((g, gi) => {
        const out = parts.get(`m${gi}`);
        const split = out && g.kind.split(out.stdout, g.members.map((x) => x.m.item));
        g.members.forEach(({ read, m }, i) => {
          const before = m.before ? parts.get(`m${gi}b${i}`) : undefined;
          if (!split || (m.before && !before)) return void retry.push(read);
          outputs.set(read.command, { stdout: before ? `${before.stdout}\n${split[i]}` : split[i], rc: 0 });
        });
      });
      return { outputs, retry };
    },
  };
}
