// A batch's start ("Gathering Facts"): connect every host, take the run locks, whose exec also makes
// the first read (the facts, or without facts the first tasks' probes), then turn that read into
// facts. A host that cannot be reached or locked is unreachable and says why; the others go on.
import { HostwireError, TransportError } from '../../errors.js';
import { factsScript } from '../../facts/index.js';
import { probeBatch } from '../../probe/read-ahead.js';
import { countResult, type HostResult, type TaskInfo } from './events.js';
import { isActive, type HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { forEachLimited } from './pool.js';
import { rootScope, taskVars } from './task-vars.js';
import { ignoresUnreachable, withIgnoredUnreachable } from './unreachable.js';

/** Keeps the host in the play with no connection (and no lock): its next task tries to reach it. */
function unreached(h: HostState, error?: Error): void {
  void h.transport?.close().catch(() => undefined);
  h.transport = undefined;
  h.unreached = { error };
}

export async function prepareBatch(p: PlayRun, batch: HostState[]): Promise<void> {
  const info: TaskInfo = { name: 'Gathering Facts', module: 'setup', loc: p.play.loc, handler: false };
  const active = batch.filter(isActive);
  if (p.play.gatherFacts && active.length) p.opts.emit({ type: 'task_start', task: info });
  const unreachable = (h: HostState, err: unknown, started: number) => {
    const msg = err instanceof HostwireError ? err.message : String(err);
    // Without facts Ansible touches the host first at its first task (which may ignore_unreachable):
    // the host stays, with no connection, and that task reports this error.
    if (!p.play.gatherFacts) return unreached(h, err instanceof Error ? err : new TransportError(msg, h.name));
    const result: HostResult = { host: h.name, status: 'unreachable', msg, durationMs: Date.now() - started };
    const kept = withIgnoredUnreachable(result, () => ignoresUnreachable(p.play.ignoreUnreachable, () => taskVars(p.vctx, h, rootScope(p.play)), p.play.loc));
    if (kept.ignored) unreached(h);
    else h.unreachable = true;
    countResult(h.stats, kept);
    p.opts.emit({ type: 'host_result', task: info, result: kept });
  };
  await forEachLimited(active, p.opts.forks, async (h) => {
    const started = Date.now();
    await p.opts.connect(h).then(() => { h.unreached = undefined; }, (err: unknown) => unreachable(h, err, started));
  });
  const lockStarted = Date.now();
  const outputs = await lockWithFirstRead(p, active.filter(isActive));
  for (const [h, err] of outputs.unreachable) unreachable(h, err, lockStarted);
  if (!p.play.gatherFacts) return;
  // A host kept without a connection (ignore_unreachable) already has its Gathering Facts result.
  await forEachLimited(active.filter((h) => isActive(h) && h.transport), p.opts.forks, async (h) => {
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
