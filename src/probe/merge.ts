// Reads that many probes of one batch make the same way (a file's stat, a unit's `systemctl show`,
// an `ovs-vsctl` query) are made once for all of them: one process instead of one per probe, each
// process costing the host ~1.3 ms (x tasks x hosts on a fleet re-run). A module builds such a
// probe with mergeableCommand(): the command works alone, and is also remembered with its kind
// and item, so the runner can replace a batch's commands of one kind by the kind's merged script
// and split its output back into exactly what each command prints alone.
import { inlineProbe, type BatchProbe } from './batch.js';
import type { ProbeOutput } from './types.js';

export interface MergeKind<T> {
  name: string;
  /** One shell script reading all items (a subshell unless marked with inlineProbe()). */
  script(items: readonly T[]): string;
  /** Per item, what its own command prints; undefined when the output cannot be trusted. */
  split(stdout: string, items: readonly T[]): string[] | undefined;
}

interface Mergeable {
  kind: MergeKind<unknown>;
  item: unknown;
  /** Read-only inline shell text whose output precedes the item's (sysctl's runtime value). */
  before?: string;
}

const remembered = new Map<string, Mergeable>();
// Commands are per host and item: bound the memory of a long run (a forgotten one just runs alone).
const MAX_REMEMBERED = 100_000;

/** Remember `command` (which reads `item` alone) as mergeable; returns the command. */
export function mergeableCommand<T>(command: string, kind: MergeKind<T>, item: T, opts: { before?: string } = {}): string {
  if (!remembered.has(command)) {
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(command, { kind: kind as MergeKind<unknown>, item, before: opts.before });
  }
  return command;
}

export interface MergedBatch {
  probes: BatchProbe[];
  /** Outputs per original command; `retry` lists the commands whose merged read was not trustworthy. */
  finish(parts: Map<string, ProbeOutput>): { outputs: Map<string, ProbeOutput>; retry: string[] };
}

/** The batch for `commands`, groups of two or more mergeable reads replaced by one script each. */
export function mergeBatch(commands: readonly string[], merge = true): MergedBatch {
  const groups = new Map<MergeKind<unknown>, { kind: MergeKind<unknown>; members: { command: string; m: Mergeable }[] }>();
  for (const command of commands) {
    const m = merge ? remembered.get(command) : undefined;
    if (!m) continue;
    const g = groups.get(m.kind) ?? { kind: m.kind, members: [] };
    g.members.push({ command, m });
    groups.set(m.kind, g);
  }
  const merged = [...groups.values()].filter((g) => g.members.length >= 2);
  const inMerge = new Set(merged.flatMap((g) => g.members.map((x) => x.command)));
  const plain = commands.filter((c) => !inMerge.has(c));
  const probes: BatchProbe[] = plain.map((command, i) => ({ id: String(i), command }));
  merged.forEach((g, gi) => {
    probes.push({ id: `m${gi}`, command: g.kind.script(g.members.map((x) => x.m.item)) });
    g.members.forEach(({ m }, i) => m.before && probes.push({ id: `m${gi}b${i}`, command: inlineProbe(m.before) }));
  });
  return {
    probes,
    finish(parts) {
      const outputs = new Map<string, ProbeOutput>();
      const retry: string[] = [];
      plain.forEach((command, i) => {
        const p = parts.get(String(i));
        if (p) outputs.set(command, p);
      });
      merged.forEach((g, gi) => {
        const out = parts.get(`m${gi}`);
        const split = out && g.kind.split(out.stdout, g.members.map((x) => x.m.item));
        g.members.forEach(({ command, m }, i) => {
          const before = m.before ? parts.get(`m${gi}b${i}`) : undefined;
          if (!split || (m.before && !before)) return void retry.push(command);
          outputs.set(command, { stdout: before ? `${before.stdout}\n${split[i]}` : split[i], rc: 0 });
        });
      });
      return { outputs, retry };
    },
  };
}
