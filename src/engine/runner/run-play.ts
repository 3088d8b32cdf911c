// One play: batches (serial), facts, the task list in linear strategy (each task on all active
// hosts, then the next), blocks with rescue/always, handlers, meta, failure policies.
import { BadInputError, HostwireError } from '../../errors.js';
import { evalCondition, loopItemsAhead, renderValue } from '../vars/index.js';
import { getModule } from '../../modules/registry.js';
import type { BlockDef, PlayDef, TaskDef, TaskItem, Vars } from '../playbook/types.js';
import { countResult, type EventListener, type HostResult, type TaskInfo } from './events.js';
import { isActive, type HostState } from './host-state.js';
import { forEachLimited } from './pool.js';
import { childScope, rootScope, taskVars, type RunVarsContext, type Scope } from './task-vars.js';
import { failedResult, runTaskOnHost } from './run-task.js';
import { effectiveCheckMode } from './check-mode.js';
import { displayName } from './task-name.js';
import type { ConfirmFn } from './confirm.js';
import { shouldRunByTags, type TagFilter } from './tags.js';
import type { Transport } from '../../transports/transport.js';
import { runDeferredSteps } from './deferred-steps.js';
import { factsScript } from '../../facts/index.js';
import { probeBatch } from '../../probe/read-ahead.js';
import { runInclude, type IncludeHost } from './run-include.js';
import type { ProbeRead } from '../../probe/types.js';

export interface PlayRunOptions extends TagFilter {
  check: boolean;
  diff: boolean;
  verbosity: number;
  forks: number;
  forceHandlers: boolean;
  startAtTask?: string;
  emit: EventListener;
  /** Opens (or reuses) the transport of a host, gathers nothing. Throws TransportError when unreachable. */
  connect(h: HostState): Promise<Transport>;
  /**
   * Takes the run lock of every connected host of the batch (deadlock-free; may wait); the lock's
   * exec also runs each host's `firstRead` script and hands back its output.
   */
  lockHosts(batch: HostState[], firstRead?: (h: HostState) => string | undefined): Promise<Map<HostState, string>>;
  /** `read`: the output of factsScript() when the lock already ran it. */
  gatherFacts(h: HostState, subset: Set<string>, read?: string): Promise<Vars>;
  /** The connected state of a delegate_to target that is no inventory host (localhost). */
  delegateHost(name: string): Promise<HostState>;
  becomePassword?: string;
  interrupted(): boolean;
  sleep(ms: number): Promise<void>;
  confirm?: ConfirmFn;
}

interface FlatTask {
  task: TaskDef;
  scope: Scope;
}

export class PlayRunner {
  private flat: FlatTask[] = [];
  private flatIndex = new Map<TaskDef, number>();
  private startReached: boolean;
  private batch: HostState[] = [];
  /** The batch's hosts and every other host a task acted on (delegates): where deferred steps wait. */
  private touched = new Set<HostState>();

  constructor(private play: PlayDef, private vctx: RunVarsContext, private opts: PlayRunOptions) {
    this.startReached = !opts.startAtTask;
    const root = rootScope(play);
    for (const items of [play.preTasks, play.tasks, play.postTasks]) this.flatten(items, root);
  }

  private flatten(items: TaskItem[], scope: Scope): void {
    for (const it of items) {
      if (it.kind === 'task') {
        this.flatIndex.set(it, this.flat.length);
        this.flat.push({ task: it, scope });
      } else {
        const s = childScope(scope, it);
        this.flatten(it.block, s);
        this.flatten(it.always, s);
      }
    }
  }

  async run(hosts: HostState[]): Promise<void> {
    for (const batch of makeBatches(hosts, this.play.serial)) {
      if (this.opts.interrupted()) return;
      this.batch = batch;
      this.touched = new Set(batch);
      for (const h of batch) {
        h.ended = false;
        h.notified.clear();
      }
      await this.prepareHosts(batch);
      const root = rootScope(this.play);
      for (const section of [this.play.preTasks, this.play.tasks, this.play.postTasks]) {
        await this.runItems(section, root);
        await this.runHandlers();
      }
      await runDeferredSteps(this.touched, this.opts.forks, this.opts.emit);
      const failed = batch.filter((h) => h.failed || h.unreachable).length;
      if (failed === batch.length) return; // Ansible stops the play when a whole batch failed
      if (this.play.maxFailPercentage !== undefined && (failed / batch.length) * 100 > this.play.maxFailPercentage) return;
    }
  }

  private async prepareHosts(batch: HostState[]): Promise<void> {
    const info: TaskInfo = { name: 'Gathering Facts', module: 'setup', loc: this.play.loc, handler: false };
    const active = batch.filter(isActive);
    if (this.play.gatherFacts && active.length) this.opts.emit({ type: 'task_start', task: info });
    await forEachLimited(active, this.opts.forks, async (h) => {
      const started = Date.now();
      try {
        await this.opts.connect(h);
      } catch (err) {
        h.unreachable = true;
        h.stats.unreachable++;
        const msg = err instanceof HostwireError ? err.message : String(err);
        this.opts.emit({ type: 'host_result', task: info, result: { host: h.name, status: 'unreachable', msg, durationMs: Date.now() - started } });
      }
    });
    // The first read rides on the lock's exec: the facts, or (without facts) the first tasks' probes.
    const firstProbes = new Map<HostState, ReturnType<typeof probeBatch>>();
    const firstRead = (h: HostState): string | undefined => {
      if (this.play.gatherFacts) return factsScript(this.play.gatherSubset);
      const first = this.flat.find(({ task }) => getModule(task.module)?.probe || getModule(task.module)?.readsAhead);
      // Probes run as the connection's user; a first task that needs become reads on its own.
      if (!first || (first.task.become ?? first.scope.become)) return undefined;
      const reads = this.lookahead(h, first.task);
      if (!reads.length) return undefined;
      const batch = probeBatch(reads);
      firstProbes.set(h, batch);
      return batch.script;
    };
    const firstOutputs = await this.opts.lockHosts(active, firstRead);
    for (const [h, batch] of firstProbes) {
      const out = firstOutputs.get(h);
      // Reads not trusted here are simply made again when their task asks.
      if (out !== undefined) batch.store(h, out);
    }
    await forEachLimited(active.filter(isActive), this.opts.forks, async (h) => {
      const started = Date.now();
      try {
        if (this.play.gatherFacts) {
          h.facts = await this.opts.gatherFacts(h, this.play.gatherSubset, firstOutputs.get(h));
          // A fact the host's output made unreadable is said, not silently left empty.
          const unread = h.facts.hostwire_fact_errors;
          if (Array.isArray(unread) && unread.length) this.opts.emit({ type: 'warning', message: `${h.name}: facts not read: ${unread.join('; ')}` });
          h.stats.ok++;
          this.opts.emit({ type: 'host_result', task: info, result: { host: h.name, status: 'ok', durationMs: Date.now() - started } });
        }
      } catch (err) {
        h.unreachable = true;
        h.stats.unreachable++;
        const msg = err instanceof HostwireError ? err.message : String(err);
        this.opts.emit({ type: 'host_result', task: info, result: { host: h.name, status: 'unreachable', msg, durationMs: Date.now() - started } });
      }
    });
  }

  /** `only` narrows the hosts (a rescue runs only for the hosts that failed in its block). */
  private async runItems(items: TaskItem[], scope: Scope, only?: HostState[]): Promise<void> {
    const pool = only ?? this.batch;
    for (const item of items) {
      if (this.opts.interrupted() || !pool.some(isActive)) return;
      if (item.kind === 'task') await this.runTask(item, scope, pool.filter(isActive));
      else if (item.dynamic) await runInclude(this.includeHost(), item, scope, pool.filter(isActive));
      else await this.runBlock(item, scope, only);
    }
  }

  /** What a dynamic include needs of this play (run-include.ts). */
  private includeHost(): IncludeHost {
    return {
      play: this.play,
      tags: this.opts,
      varsFor: (h, scope, task, extra) => taskVars(this.vctx, h, scope, task, extra),
      taskInfo: (task, scope, first) => this.taskInfo(task, false, scope, first),
      emit: (e) => this.opts.emit(e),
      record: (task, h, result, info) => this.record(task, h, result, info),
      runItems: (items, scope, hosts) => this.runItems(items, scope, hosts),
    };
  }

  private async runBlock(block: BlockDef, parent: Scope, only?: HostState[]): Promise<void> {
    const scope = childScope(parent, block);
    const entered = (only ?? this.batch).filter(isActive);
    await this.runItems(block.block, scope, entered);
    const failedHere = entered.filter((h) => h.failed && !h.unreachable);
    if (block.rescue.length && failedHere.length) {
      for (const h of failedHere) {
        h.failed = false;
        h.stats.failed--;
        h.stats.rescued++;
      }
      await this.runItems(block.rescue, scope, failedHere);
    }
    if (block.always.length) {
      // always runs for hosts that failed inside the block too; they stay failed afterwards.
      const stillFailed = entered.filter((h) => h.failed && !h.unreachable);
      for (const h of stillFailed) h.failed = false;
      await this.runItems(block.always, scope, entered);
      for (const h of stillFailed) h.failed = true;
    }
  }

  /** `first`: the host whose variables template the task's name, as Ansible shows it. */
  private taskInfo(task: TaskDef, handler: boolean, scope: Scope, first?: HostState): TaskInfo {
    const name = task.name === undefined ? task.module : displayName(task.name, () => first && taskVars(this.vctx, first, scope, task));
    return { name, module: task.module, role: task.role?.name, loc: task.loc, handler };
  }

  private async runTask(task: TaskDef, scope: Scope, hosts: HostState[], handler = false): Promise<void> {
    const tags = [...new Set([...scope.tags, ...task.tags])];
    if (!handler && !shouldRunByTags(tags, this.opts)) return;
    if (!this.startReached) {
      const full = task.role ? `${task.role.name} : ${task.name}` : task.name;
      if (task.name !== this.opts.startAtTask && full !== this.opts.startAtTask) return;
      this.startReached = true;
    }
    if (hosts.length === 0) return;
    const info = this.taskInfo(task, handler, scope, hosts[0]);
    if (task.module === 'meta') return this.runMeta(task, scope, hosts, info);
    this.opts.emit({ type: 'task_start', task: info });
    const runOnce = task.runOnce ?? scope.runOnce;
    const targets = runOnce ? hosts.slice(0, 1) : hosts;
    await forEachLimited(targets, this.opts.forks, async (h) => {
      const result = await this.runOnHost(task, scope, h);
      this.record(task, h, result, info);
      if (runOnce) {
        for (const other of hosts.slice(1)) {
          if (task.register) other.runtimeVars[task.register] = h.runtimeVars[task.register];
          if (result.status === 'changed') this.notify(task, other);
        }
      }
    });
    if (this.play.anyErrorsFatal && hosts.some((h) => h.failed)) {
      for (const h of this.batch) if (isActive(h)) h.ended = true;
    }
  }

  private async runOnHost(task: TaskDef, scope: Scope, h: HostState): Promise<HostResult> {
    const become = (task.become ?? scope.become)
      ? { enabled: true, user: task.becomeUser ?? scope.becomeUser ?? 'root', password: this.opts.becomePassword }
      : undefined;
    let check: boolean;
    try {
      check = effectiveCheckMode([scope.checkMode, task.checkMode], this.opts.check, () => taskVars(this.vctx, h, scope, task), task.loc);
    } catch (err) {
      return failedResult(h, task, err);
    }
    const varsFor = (extra?: Vars) => taskVars(this.vctx, h, scope, task, extra, check);
    // The host the module acts on: itself, its delegate, or the controller (connection: local).
    let target = h;
    let delegatedTo: string | undefined;
    let factsTo: HostState | undefined;
    const when = [...scope.when, ...task.when];
    const connection = task.connection ?? scope.connection;
    if (connection === 'ssh' && this.play.connection === 'local') {
      return failedResult(h, task, new BadInputError('connection: ssh on a task inside a play with connection: local is not supported (set it on the play)', task.loc));
    }
    // connection: local runs the task on the controller with this host's vars (Ansible's local plugin).
    if (connection === 'local' && !task.delegateTo) target = await this.opts.delegateHost('localhost');
    // As in Ansible, a task that `when` skips never resolves its delegate (it may be undefined there).
    if (task.delegateTo && (task.loop !== undefined || whenHolds(when, varsFor(), task))) {
      delegatedTo = String(renderValue(task.delegateTo, varsFor(), task.loc));
      const other = this.vctx.hosts.get(delegatedTo);
      if (other) await this.opts.connect(other);
      target = other ?? (await this.opts.delegateHost(delegatedTo));
      if (task.delegateFacts) {
        // Ansible keeps an implicit localhost's facts; hostwire has a host state only for inventory hosts.
        if (!other) return failedResult(h, task, new BadInputError(`delegate_facts: '${delegatedTo}' is not an inventory host of this run, so it cannot receive facts`, task.loc));
        factsTo = other;
      }
    }
    this.touched.add(target);
    return runTaskOnHost(task, h, varsFor, when, {
      check,
      environment: task.environment === undefined ? scope.environment : [...scope.environment, task.environment],
      diff: this.opts.diff,
      verbosity: this.opts.verbosity,
      become,
      transport: target.transport!,
      deferred: target.deferred,
      delegatedTo,
      factsTo,
      lookahead: (host) => this.lookahead(host, task),
      sleep: this.opts.sleep,
      confirm: this.opts.confirm,
      interrupted: this.opts.interrupted,
    });
  }

  private record(task: TaskDef, h: HostState, result: HostResult, info: TaskInfo): void {
    if (result.status === 'unreachable') h.unreachable = true;
    else if (result.status === 'failed' && !result.ignored) h.failed = true;
    countResult(h.stats, result);
    if (result.status === 'changed') this.notify(task, h);
    this.opts.emit({ type: 'host_result', task: info, result });
  }

  private notify(task: TaskDef, h: HostState): void {
    for (const n of task.notify) h.notified.add(n);
  }

  private async runHandlers(): Promise<void> {
    // Every handler listening on a notified topic runs, so topics are cleared only after the pass;
    // a handler's own name is cleared as it runs.
    const consumed = new Map<HostState, Set<string>>();
    for (const handler of this.play.handlers) {
      // A handler is a task: after an interrupt none starts (the recap says no new task started).
      if (this.opts.interrupted()) return;
      const names = [handler.name ?? '', ...handler.listen].filter(Boolean);
      const hosts = this.batch.filter((h) => (isActive(h) || (this.opts.forceHandlers && h.failed && !h.unreachable)) && names.some((n) => h.notified.has(n)));
      if (!hosts.length) continue;
      for (const h of hosts) {
        const seen = consumed.get(h) ?? new Set<string>();
        for (const n of names) if (h.notified.has(n)) seen.add(n);
        consumed.set(h, seen);
        if (handler.name) h.notified.delete(handler.name);
      }
      const forced = hosts.filter((h) => h.failed);
      for (const h of forced) h.failed = false;
      await this.runTask(handler, rootScope(this.play), hosts, true);
      for (const h of forced) h.failed = true;
    }
    for (const [h, names] of consumed) for (const n of names) h.notified.delete(n);
    for (const h of this.batch) {
      const unknown = [...h.notified].filter((n) => !this.play.handlers.some((x) => x.name === n || x.listen.includes(n)));
      if (unknown.length) throw new BadInputError(`the handler '${unknown[0]}' is notified but not defined in this play`, this.play.loc);
    }
  }

  private async runMeta(task: TaskDef, scope: Scope, hosts: HostState[], info: TaskInfo): Promise<void> {
    const action = String(task.args._raw_params ?? '');
    const applies = hosts.filter((h) => evalCondition([...scope.when, ...task.when] as string[], taskVars(this.vctx, h, scope, task), task.loc));
    switch (action) {
      case 'flush_handlers':
        return this.runHandlers();
      case 'end_play':
        if (applies.length) for (const h of this.batch) h.ended = true;
        return;
      case 'end_host':
        for (const h of applies) h.ended = true;
        return;
      case 'clear_facts':
        for (const h of applies) h.facts = {};
        return;
      case 'clear_host_errors':
        for (const h of this.batch) if (h.failed) h.failed = false;
        return;
      default:
        void info;
        return;
    }
  }

  /** Probe reads of the tasks after `current` that can already be rendered for this host. */
  private lookahead(h: HostState, current: TaskDef): ProbeRead[] {
    const start = this.flatIndex.get(current);
    if (start === undefined) return [];
    const out: ProbeRead[] = [];
    for (let i = start; i < this.flat.length && out.length < 400; i++) {
      const { task, scope } = this.flat[i];
      const mod = getModule(task.module);
      if (!mod?.probe && !mod?.readsAhead) continue;
      if (!shouldRunByTags([...scope.tags, ...task.tags], this.opts)) continue;
      try {
        const items = task.loop === undefined ? [undefined] : loopItemsAhead(task, taskVars(this.vctx, h, scope, task));
        for (const item of Array.isArray(items) ? items : []) {
          const extra = task.loop === undefined ? undefined : { [task.loopVar]: item };
          const vars = taskVars(this.vctx, h, scope, task, extra);
          if (!evalCondition([...scope.when, ...task.when] as string[], vars)) continue;
          const parsed = mod.args.safeParse(renderValue(task.args, vars));
          if (!parsed.success) continue;
          if (mod.probe) out.push(mod.probe(parsed.data, { host: h.name, vars }));
          else out.push(...mod.readsAhead!(parsed.data));
        }
      } catch {
        // Depends on something not known yet (a register of an earlier task): read it when its turn comes.
      }
    }
    return out;
  }
}

/** serial: a number, a percentage, or a list of them (the last repeats). */
export function makeBatches<T>(hosts: T[], serial: (number | string)[]): T[][] {
  if (!serial.length) return [hosts];
  const sizes = serial.map((s) => {
    const str = String(s).trim();
    const n = str.endsWith('%') ? Math.floor((hosts.length * Number(str.slice(0, -1))) / 100) : Number(str);
    if (!Number.isFinite(n)) throw new BadInputError(`serial: expected a number or a percentage, got '${str}'`);
    return Math.max(1, n);
  });
  const out: T[][] = [];
  let i = 0;
  let k = 0;
  while (i < hosts.length) {
    const size = sizes[Math.min(k++, sizes.length - 1)];
    out.push(hosts.slice(i, i + size));
    i += size;
  }
  return out;
}

/** `when` evaluated early (for delegate_to); an error here is left for the task itself to report. */
function whenHolds(when: unknown[], vars: Vars, task: TaskDef): boolean {
  try {
    return evalCondition(when as (string | boolean)[], vars, task.loc);
  } catch {
    return true;
  }
}
