// A batch's start ("Gathering Facts"): connect every host, take the run locks, whose exec also makes
// the first read (the facts, or without facts the first tasks' probes), then turn that read into
// facts. A host that cannot be reached or locked is unreachable and says why; the others go on.
import { HostwireError } from '../../errors.js';
import { factsScript } from '../../facts/index.js';
import { probeBatch } from '../../probe/read-ahead.js';
import type { TaskInfo } from './events.js';
import { isActive, type HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { forEachLimited } from './pool.js';

export async function prepareBatch(p: PlayRun, batch: HostState[]): Promise<void> {
  const info: TaskInfo = { name: 'Gathering Facts', module: 'setup', loc: p.play.loc, handler: false };
  const active = batch.filter(isActive);
  if (p.play.gatherFacts && active.length) p.opts.emit({ type: 'task_start', task: info });
  const unreachable = (h: HostState, err: unknown, started: number) => {
    h.unreachable = true;
    h.stats.unreachable++;
    const msg = err instanceof HostwireError ? err.message : String(err);
    p.opts.emit({ type: 'host_result', task: info, result: { host: h.name, status: 'unreachable', msg, durationMs: Date.now() - started } });
  };
  await forEachLimited(active, p.opts.forks, async (h) => {
    const started = Date.now();
    await p.opts.connect(h).catch((err: unknown) => unreachable(h, err, started));
  });
  const lockStarted = Date.now();
  const outputs = await lockWithFirstRead(p, active.filter(isActive));
  for (const [h, err] of outputs.unreachable) unreachable(h, err, lockStarted);
  if (!p.play.gatherFacts) return;
  await forEachLimited(active.filter(isActive), p.opts.forks, async (h) => {
    const started = Date.now();
    try {
      // Gathered facts update the host's facts (ansible-core's set_host_facts): what a module returned earlier stays.
      const gathered = await p.opts.gatherFacts(h, p.play.gatherSubset, outputs.outputs.get(h));
      const kept = { ...h.facts };
      delete kept.hostwire_fact_errors;
      h.facts = { ...kept, ...gathered };
      // A fact the host's output made unreadable is said, not silently left empty.
      const unread = h.facts.hostwire_fact_errors;
      if (Array.isArray(unread) && unread.length) p.opts.emit({ type: 'warning', message: `${h.name}: facts not read: ${unread.join('; ')}` });
      h.stats.ok++;
      p.opts.emit({ type: 'host_result', task: info, result: { host: h.name, status: 'ok', durationMs: Date.now() - started } });
    } catch (err) {
      unreachable(h, err, started);
    }
  });
}

/** The first read rides on the lock's exec: the facts, or (without facts) the first tasks' probes. */
async function lockWithFirstRead(p: PlayRun, hosts: HostState[]) {
  const firstProbes = new Map<HostState, ReturnType<typeof probeBatch>>();
  const firstRead = (h: HostState): string | undefined => {
    if (p.play.gatherFacts) return factsScript(p.play.gatherSubset);
    const first = p.ahead.firstReader();
    // Probes run as the connection's user; a first task that needs become reads on its own.
    if (!first || first.become) return undefined;
    const reads = p.ahead.readsFrom(h, first.task);
    if (!reads.length) return undefined;
    const batch = probeBatch(reads);
    firstProbes.set(h, batch);
    return batch.script;
  };
  const locked = await p.opts.lockHosts(hosts, firstRead);
  for (const [h, batch] of firstProbes) {
    const out = locked.outputs.get(h);
    // Reads not trusted here are simply made again when their task asks.
    if (out !== undefined) batch.store(h, out);
  }
  return locked;
}
