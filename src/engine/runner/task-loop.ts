// The task loop of the linear strategy: one task on all active hosts of the batch (--forks at a
// time), then the next. Here: tags and --start-at-task, run_once, any_errors_fatal, the host a task
// acts on (itself, its delegate, the controller), and recording each host's result (stats, notify).
import { BadInputError, HostwireError } from '../../errors.js';
import { keywordUser } from './remote-user.js';
import { evalCondition, isTemplated, renderValue } from '../vars/index.js';
import type { TaskDef, Vars } from '../playbook/types.js';
import { roleDisplayName } from '../playbook/types.js';
import { countResult, type HostResult, type TaskInfo } from './events.js';
import { isActive, type HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { forEachLimited } from './pool.js';
import { taskVars, type Scope } from './task-vars.js';
import { failedResult, runTaskOnHost } from './run-task.js';
import { effectiveCheckMode } from './check-mode.js';
import { withDiffKeyword } from './diff-keyword.js';
import { displayName } from './task-name.js';
import { taskThrottle } from './throttle.js';
import { shouldRunByTags } from './tags.js';
import { runMeta } from './meta.js';
import { getModule } from '../../modules/registry.js';
import { runEffects } from './run-effects.js';
import { ignoresUnreachable, transportFor, withIgnoredUnreachable } from './unreachable.js';
import { getOwn, setOwn } from '../../own-keys.js';

/** Waits `ms` in short steps so that an interrupted run stops waiting at once; false when interrupted. */
async function interruptibleWait(p: PlayRun, ms: number): Promise<boolean> {
  for (let left = ms; left > 0; left -= 200) {
    if (p.opts.interrupted()) return false;
    await p.opts.sleep(Math.min(left, 200));
  }
  return !p.opts.interrupted();
}

/** `first`: the host whose variables template the task's name, as Ansible shows it. */
export function taskInfo(p: PlayRun, task: TaskDef, handler: boolean, scope: Scope, first?: HostState): TaskInfo {
  const name = task.name === undefined ? task.written : displayName(task.name, () => first && taskVars(p.vctx, first, scope, task));
  return { name, module: task.module, role: task.role && roleDisplayName(task.role), loc: task.loc, handler };
}

/** --start-at-task: tasks before the named one are passed over (handlers are never). */
function reachedStart(p: PlayRun, task: TaskDef): boolean {
  if (p.startReached) return true;
  const full = task.role ? `${roleDisplayName(task.role)} : ${task.name}` : task.name;
  if (task.name !== p.opts.startAtTask && full !== p.opts.startAtTask) return false;
  p.startReached = true;
  return true;
}

export async function runTask(p: PlayRun, task: TaskDef, scope: Scope, hosts: HostState[], handler = false): Promise<void> {
  const tags = [...new Set([...scope.tags, ...task.tags])];
  if (!handler && !shouldRunByTags(tags, p.opts)) return;
  if (!reachedStart(p, task) || hosts.length === 0) return;
  const info = taskInfo(p, task, handler, scope, hosts[0]);
  if (task.module === 'meta') return runMeta(p, task, scope, hosts);
  p.opts.emit({ type: 'task_start', task: info });
  const runOnce = task.runOnce ?? scope.runOnce;
  // Ansible's BYPASS_HOST_LOOP (add_host, pause): once for the batch, as run_once but registered on the first host only.
  const targets = runOnce || getModule(task.module)?.bypassHostLoop ? hosts.slice(0, 1) : hosts;
  // throttle: fewer hosts at once than --forks, never more (Ansible caps it by forks); a template is
  // rendered with the first host's vars (Ansible renders it per host as it queues them: the same value
  // unless it reads host vars).
  const throttle = taskThrottle(task, () => taskVars(p.vctx, targets[0]!, scope, task));
  const limit = throttle ? Math.min(throttle, p.opts.forks) : p.opts.forks;
  await forEachLimited(targets, limit, async (h) => {
    const result = await runOnHost(p, task, scope, h, Boolean(runOnce));
    record(p, task, h, result, info);
    if (runOnce) {
      for (const other of hosts.slice(1)) {
        if (task.register) setOwn(other.runtimeVars, task.register, getOwn(h.runtimeVars, task.register));
        if (result.status === 'changed') notify(task, other);
      }
    }
  });
  // any_errors_fatal on the task, a block or role around it, else the play's (inherited at load).
  if ((task.anyErrorsFatal ?? p.play.anyErrorsFatal) && hosts.some((h) => h.failed)) {
    for (const h of p.batch) if (isActive(h)) h.ended = true;
  }
}

async function runOnHost(p: PlayRun, task: TaskDef, scope: Scope, h: HostState, runOnce: boolean): Promise<HostResult> {
  const become = (task.become ?? scope.become)
    ? { enabled: true, user: task.becomeUser ?? scope.becomeUser ?? 'root', password: p.opts.becomePassword }
    : undefined;
  let check: boolean;
  try {
    check = effectiveCheckMode([scope.checkMode, task.checkMode], p.opts.check, () => taskVars(p.vctx, h, scope, task), task.loc);
  } catch (err) {
    return failedResult(h, task, err);
  }
  const varsFor = (extra?: Vars) => taskVars(p.vctx, h, scope, task, extra, check);
  const when = [...scope.when, ...task.when];
  const acting = await actingHost(p, task, scope, h, () => whenHolds(when, varsFor(), task), varsFor);
  if (acting instanceof Error) return failedResult(h, task, acting);
  // remote_user on the task (or its block/role) other than the login of the host's own connection.
  const user = acting.target === h && h.connectedAs !== undefined ? keywordUser(task.remoteUser, varsFor(), task.loc) : undefined;
  if (user !== undefined && user !== h.connectedAs) acting.target = await p.opts.userHost(h, user);
  p.touched.add(acting.target);
  const result = await runTaskOnHost(withIgnoreErrors(task, varsFor), h, varsFor, when, {
    check,
    environment: task.environment === undefined ? scope.environment : [...scope.environment, task.environment],
    moduleDefaults: task.moduleDefaults ? [...scope.moduleDefaults, ...task.moduleDefaults] : scope.moduleDefaults,
    diff: task.diff ?? p.opts.diff,
    verbosity: p.opts.verbosity,
    become,
    transport: transportFor(p, acting.target),
    deferred: acting.target.deferred,
    delegatedTo: acting.delegatedTo,
    factsTo: acting.factsTo,
    lookahead: (host) => p.ahead.readsFrom(host, task),
    sleep: p.opts.sleep,
    confirm: p.opts.confirm,
    interrupted: p.opts.interrupted,
    wait: (ms) => interruptibleWait(p, ms),
    ask: p.opts.prompt,
    onResult: runEffects(p, task, h, runOnce),
  });
  const ignore = () => ignoresUnreachable(task.ignoreUnreachable, varsFor, task.loc);
  return withIgnoredUnreachable(withDiffKeyword(result, task.diff), ignore);
}

interface Acting {
  /** The host the module acts on: `h` itself, its delegate, or the controller (connection: local). */
  target: HostState;
  /** The rendered delegate_to, for display. */
  delegatedTo?: string;
  /** delegate_facts: the delegate, which receives the task's facts. */
  factsTo?: HostState;
}

/** Where the task acts for host `h`; an Error is the task's failure (bad input). */
async function actingHost(p: PlayRun, task: TaskDef, scope: Scope, h: HostState, runs: () => boolean, varsFor: () => Vars): Promise<Acting | Error> {
  const connection = task.connection ?? scope.connection;
  if (connection === 'ssh' && p.play.connection === 'local') {
    return new BadInputError('connection: ssh on a task inside a play with connection: local is not supported (set it on the play)', task.loc);
  }
  // As in Ansible, a task that `when` skips never resolves its delegate (it may be undefined there).
  if (!task.delegateTo || (task.loop === undefined && !runs())) {
    // connection: local runs the task on the controller with this host's vars (Ansible's local plugin).
    return { target: connection === 'local' && !task.delegateTo ? await p.opts.delegateHost('localhost') : h };
  }
  const delegatedTo = String(renderValue(task.delegateTo, varsFor(), task.loc));
  let target: HostState;
  try {
    const known = p.vctx.hosts.get(delegatedTo);
    if (known) await p.opts.connect(known);
    target = known ?? (await p.opts.delegateHost(delegatedTo));
  } catch (e) {
    // An unreachable delegate makes this host's task unreachable (as Ansible reports it), a bad
    // setting of it (a missing key file) fails the task: a result, not an error out of the run.
    if (e instanceof HostwireError) return e;
    throw e;
  }
  const other = p.vctx.hosts.get(delegatedTo);
  if (!task.delegateFacts) return { target, delegatedTo };
  // Ansible keeps an implicit localhost's facts; hostwire has a host state only for inventory hosts.
  if (!other) return new BadInputError(`delegate_facts: '${delegatedTo}' is not an inventory host of this run, so it cannot receive facts`, task.loc);
  return { target, delegatedTo, factsTo: other };
}

export function record(p: PlayRun, task: TaskDef, h: HostState, result: HostResult, info: TaskInfo): void {
  if (result.status === 'unreachable' && !result.ignored) h.unreachable = true;
  else if (result.status === 'failed' && !result.ignored) h.failed = true;
  countResult(h.stats, result);
  if (result.status === 'changed') notify(task, h);
  p.opts.emit({ type: 'host_result', task: info, result });
}

function notify(task: TaskDef, h: HostState): void {
  for (const n of task.notify) h.notified.add(n);
}

/** `when` evaluated early (for delegate_to); an error here is left for the task itself to report. */
function whenHolds(when: unknown[], vars: Vars, task: TaskDef): boolean {
  try {
    return evalCondition(when as (string | boolean)[], vars, task.loc);
  } catch {
    return true;
  }
}

/** ignore_errors written as a template ("{{ x }}") is rendered per host, as Ansible templates the keyword. */
function withIgnoreErrors(task: TaskDef, varsFor: () => Vars): TaskDef {
  if (typeof task.ignoreErrors !== 'string' || !isTemplated(task.ignoreErrors)) return task;
  return { ...task, ignoreErrors: renderValue(task.ignoreErrors, varsFor(), task.loc) };
}
