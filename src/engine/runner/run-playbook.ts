// The library entry point: load inventory and playbook, run every play, return the summary.
// `import { runPlaybook } from 'hostwire'` gives installers the same typed events the CLI renders.
import path from 'node:path';
import { BadInputError, HostwireError } from '../../errors.js';
import { writePrivateFileSync } from '../../private-files.js';
import { loadPlaybook } from '../playbook/load-playbook.js';
import type { PlayDef, TaskItem, Vars } from '../playbook/types.js';
import { locOf, readYamlFile } from '../yaml-source.js';
import { isTemplated, mergeVars, renderValue, templatedVars } from '../vars/index.js';
import { connectionSettings, hostVars, loadInventory, loadVarsDir, selectHosts, type Inventory } from '../inventory/index.js';
import { createTransport, LocalTransport, LockInterruptedError, type HostKeyChecking } from '../../transports/index.js';
import { createHostLocker } from './host-locks.js';
import { Semaphore } from '../../transports/semaphore.js';
import type { Transport } from '../../transports/transport.js';
import { assembleFacts, gatherFacts } from '../../facts/index.js';
import { splitBatch } from '../../probe/batch.js';
import { getModule, isKnownModule } from '../../modules/registry.js';
import { createFallbackResolver } from '../../fallback/resolve.js';
import { warmUpModules } from './warm-up.js';
import { formatArgsError } from './args-error.js';
import { emptyStats, type EventListener, type RunEvent, type RunSummary } from './events.js';
import { newHostState, type HostState } from './host-state.js';
import { PlayRunner } from './run-play.js';
import { checkLimit, checkStartAtTask } from './run-checks.js';
import { serializeConfirm, type ConfirmFn } from './confirm.js';
import { rootScope, taskVars, type RunVarsContext } from './task-vars.js';
import { maskText, maskValue, registerSecretVars } from '../../vault/index.js';
import { applyPlayDefaults, withConnectionDefaults, type ConnectionDefaults, type PlayDefaults } from './config-defaults.js';

export type { ConnectionDefaults, PlayDefaults } from './config-defaults.js';

export interface RunOptions {
  playbook: string;
  inventory: string[];
  limit?: string;
  extraVars?: Vars;
  check?: boolean;
  diff?: boolean;
  /** -v count: debug tasks with a higher `verbosity:` are skipped, as in Ansible. */
  verbosity?: number;
  forks?: number;
  tags?: string[];
  skipTags?: string[];
  startAtTask?: string;
  forceHandlers?: boolean;
  /** Force every host to this connection type (-c local). */
  connection?: 'ssh' | 'local';
  hostKeyChecking?: HostKeyChecking;
  becomePassword?: string;
  /** Fail at once when another run holds a host's lock (--no-wait). */
  noWait?: boolean;
  /** Give up waiting for another run's lock after this many seconds (--lock-timeout, default 600). */
  lockTimeoutSec?: number;
  /** Host-side lease of the run lock's holder in seconds (default 30; tests shorten it). */
  lockLeaseSec?: number;
  rolesPath?: string[];
  /** Write <playbook>.retry listing failed hosts (default true). */
  retryFile?: boolean;
  onEvent?: EventListener;
  /** SSH handshakes in flight at once (default 32); every connected host still runs in parallel. */
  connectConcurrency?: number;
  /** Abort: stop starting tasks, let running ones finish, return with exit code 99. */
  signal?: AbortSignal;
  /** Asked before applying a change a module marks disruptive (never under --check); false skips it. */
  confirm?: ConfirmFn;
  /** ansible.cfg / ANSIBLE_* values below the inventory's own ansible_* vars. */
  connectionDefaults?: ConnectionDefaults;
  /** ansible.cfg / ANSIBLE_* defaults for plays that do not set these keywords. */
  playDefaults?: PlayDefaults;
}

export const EXIT = { ok: 0, failed: 2, unreachable: 4, badInput: 5, interrupted: 99, internal: 250 } as const;

export async function runPlaybook(opts: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  // Secrets (vault values, hostwire_secret_vars) are masked before any listener sees an event.
  const emit = (e: RunEvent) => opts.onEvent?.(maskValue(e));
  const check = Boolean(opts.check);
  // Hosts run in parallel; their questions are asked one at a time. Kept under --check too: a
  // task with check_mode: false applies for real there (execModule never asks in check mode).
  const confirm = opts.confirm ? serializeConfirm(opts.confirm) : undefined;
  const diff = Boolean(opts.diff);
  const playbook = await loadPlaybook(opts.playbook, { rolesPath: opts.rolesPath, knownModule: isKnownModule, resolveModule: createFallbackResolver() });
  for (const play of playbook.plays) {
    validatePlayStatically(play);
    // hostwire never prompts; Ansible skips a prompt whose variable came with -e, so that is the way in.
    const missing = play.varsPrompt.find((p) => !(p.name in (opts.extraVars ?? {})));
    if (missing) throw new BadInputError(`vars_prompt '${missing.name}': hostwire does not prompt; pass the value with -e ${missing.name}=...`, missing.loc);
  }
  checkStartAtTask(playbook.plays, opts.startAtTask);
  const inv = await loadInventory(opts.inventory);
  checkLimit(inv, opts.limit);
  // group_vars/ and host_vars/ beside the playbook, as Ansible reads them (above the inventory's own).
  const playLayers = [await loadVarsDir(playbook.dir, inv)];
  const hosts = new Map<string, HostState>();
  const hostState = (name: string) => {
    let h = hosts.get(name);
    if (!h) hosts.set(name, (h = newHostState(name, hostVars(inv, name, { playLayers }))));
    return h;
  };
  const otherHostVars = new Map<string, Vars>();
  const inventoryVarsOf = (name: string): Vars => {
    let v = otherHostVars.get(name);
    if (!v) otherHostVars.set(name, (v = hostVars(inv, name, { playLayers })));
    return v;
  };
  // delegate_to targets outside the inventory (localhost): a state of their own, for deferred steps.
  const localDelegates = new Map<string, HostState>();
  // At most this many SSH handshakes at once: hundreds started together starve each other (and the
  // hosts' sshd) of CPU until the slowest pass the connect timeout - measured: 406 of 500 light
  // hosts unreachable on 2 busy cores. Connected hosts still all run in parallel (--forks).
  const handshakes = new Semaphore(opts.connectConcurrency ?? 32);
  /** -c forces; else a host's own ansible_connection; else the play's `connection:` keyword; else ssh. */
  const connectionOf = (h: HostState, play?: PlayDef): 'ssh' | 'local' => {
    const vars = templatedVars(mergeVars(h.inventoryVars, opts.extraVars)) as Vars;
    const settings = connectionSettings(vars);
    return opts.connection ?? (vars.ansible_connection === undefined ? play?.connection : undefined) ?? settings.connection;
  };
  const connect = async (h: HostState, play?: PlayDef): Promise<Transport> => {
    if (h.transport) return h.transport;
    const settings = connectionSettings(withConnectionDefaults(opts.connectionDefaults, templatedVars(mergeVars(h.inventoryVars, opts.extraVars)) as Vars));
    const netns = h.inventoryVars.hostwire_netns;
    const t = createTransport(h.name, { ...settings, connection: connectionOf(h, play), netns: typeof netns === 'string' ? netns : undefined }, { hostKeyChecking: opts.hostKeyChecking });
    await handshakes.run(() => t.connect());
    h.transport = t;
    warmUpModules(play, t, h.inventoryVars);
    return t;
  };
  const { lockHosts } = createHostLocker({
    emit, noWait: opts.noWait, timeoutSec: opts.lockTimeoutSec, signal: opts.signal, leaseSec: opts.lockLeaseSec,
  });
  let interrupted = false;
  opts.signal?.addEventListener('abort', () => (interrupted = true), { once: true });

  emit({ type: 'run_start', playbook: playbook.path, check, diff });
  try {
    for (const play of playbook.plays) {
      if (interrupted) break;
      const names = resolvePlayHosts(inv, play, opts.extraVars ?? {}, opts.limit);
      if (names.length === 0) {
        emit({ type: 'no_hosts', play: play.name, pattern: play.hosts });
        continue;
      }
      const playHosts = names.map(hostState);
      applyPlayDefaults(play, opts.playDefaults, playHosts);
      emit({ type: 'play_start', name: play.name, hosts: names });
      const vctx: RunVarsContext = {
        play,
        playFileVars: await loadVarsFiles(play, opts.extraVars ?? {}),
        extraVars: opts.extraVars ?? {},
        hosts,
        inventoryHosts: { names: [...inv.hosts.keys()], vars: (name) => inventoryVarsOf(name) },
        playHosts: names,
        groups: (hostVars(inv, names[0]).groups as Record<string, string[]>) ?? {},
        check,
        diff,
        playbookDir: playbook.dir,
      };
      for (const h of playHosts) registerSecretVars(taskVars(vctx, h, rootScope(play)));
      const runner = new PlayRunner(play, vctx, {
        check,
        diff,
        verbosity: opts.verbosity ?? 0,
        forks: opts.forks ?? 50,
        forceHandlers: Boolean(opts.forceHandlers),
        tags: opts.tags ?? [],
        skipTags: opts.skipTags ?? [],
        startAtTask: opts.startAtTask,
        emit,
        connect: (h) => connect(h, play),
        lockHosts,
        gatherFacts: async (h, subset, read) => (read !== undefined ? assembleFacts(splitBatch(read), subset) : await gatherFacts(h.transport!, subset)) as unknown as Vars,
        delegateHost: async (name) => {
          if (name !== 'localhost' && name !== '127.0.0.1') throw new BadInputError(`delegate_to: '${name}' is not in the inventory`);
          let d = localDelegates.get(name);
          if (!d) {
            localDelegates.set(name, (d = newHostState(name, {})));
            d.transport = new LocalTransport(name);
          }
          return d;
        },
        becomePassword: opts.becomePassword,
        interrupted: () => interrupted,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        confirm,
      });
      const swapped = setAsideOtherConnections(playHosts, (h) => connectionOf(h, play));
      try {
        await runner.run(playHosts);
      } catch (err) {
        // A first Ctrl-C / SIGTERM ends a lock wait: no task started there, the recap follows.
        if (err instanceof LockInterruptedError && interrupted) break;
        throw err;
      } finally {
        await restoreConnections(swapped);
      }
      emit({ type: 'play_end', name: play.name });
    }
  } finally {
    await Promise.allSettled([...hosts.values()].map(async (h) => {
      await h.releaseLock?.().catch(() => undefined);
      await h.transport?.close().catch(() => undefined);
    }));
    await Promise.allSettled([...localDelegates.values()].map((d) => d.transport?.close()));
  }
  const summary = summarize(hosts, started, interrupted);
  if (summary.failedHosts.length && opts.retryFile !== false) writeRetryFile(playbook.path, summary.failedHosts);
  emit({ type: 'run_end', summary });
  return summary;
}

interface SetAside {
  h: HostState;
  transport: Transport;
  releaseLock?: () => Promise<void>;
}

/**
 * A play whose connection differs from the one a host is already connected by (`connection: local`
 * after an SSH play, or the reverse) gets its own transport and lock; the earlier ones come back after it.
 */
function setAsideOtherConnections(hosts: HostState[], wanted: (h: HostState) => 'ssh' | 'local'): SetAside[] {
  const out: SetAside[] = [];
  for (const h of hosts) {
    if (!h.transport || (h.transport instanceof LocalTransport) === (wanted(h) === 'local')) continue;
    out.push({ h, transport: h.transport, releaseLock: h.releaseLock });
    h.transport = undefined;
    h.releaseLock = undefined;
  }
  return out;
}

async function restoreConnections(swapped: SetAside[]): Promise<void> {
  await Promise.allSettled(swapped.map(async ({ h, transport, releaseLock }) => {
    await h.releaseLock?.().catch(() => undefined);
    await h.transport?.close().catch(() => undefined);
    h.transport = transport;
    h.releaseLock = releaseLock;
  }));
}

/** `hosts:` is templated with the play's vars and -e vars, as Ansible does (`hosts: "{{ new_nodes }}"`). */
function resolvePlayHosts(inv: Inventory, play: PlayDef, extra: Vars, limit?: string): string[] {
  const rendered = String(renderValue(play.hosts, templatedVars(mergeVars(play.vars, extra)), play.loc));
  const selected = selectHosts(inv, rendered, { limit: limit ? [limit] : undefined });
  if (selected.length === 0 && ['localhost', '127.0.0.1'].includes(rendered) && !limit) return [rendered];
  return selected;
}

async function loadVarsFiles(play: PlayDef, extra: Vars): Promise<Vars> {
  let out: Vars = {};
  for (const f of play.varsFiles) {
    const file = path.resolve(play.baseDir, String(renderValue(f, templatedVars(mergeVars(play.vars, extra)), play.loc)));
    const data = await readYamlFile(file).catch((err: unknown) => {
      // A missing vars file: say which play asked for it.
      if (err instanceof BadInputError && err.loc?.line === undefined) throw new BadInputError(`vars_files entry '${f}': ${err.message}`, locOf(play.varsFiles) ?? play.loc, err);
      throw err;
    });
    if (data === null || data === undefined) continue;
    if (typeof data !== 'object' || Array.isArray(data)) throw new BadInputError(`a vars file must be a mapping of variables, got ${Array.isArray(data) ? 'a list' : typeof data}`, { file, line: 1 });
    out = mergeVars(out, data as Vars);
  }
  return out;
}

/** Bad input is found before anything runs: literal module args, handler names. */
function validatePlayStatically(play: PlayDef): void {
  const handlerNames = new Set(play.handlers.flatMap((h) => [h.name ?? '', ...h.listen]));
  const visit = (items: TaskItem[]) => {
    for (const it of items) {
      if (it.kind === 'block') {
        visit(it.block);
        visit(it.rescue);
        visit(it.always);
        continue;
      }
      const mod = getModule(it.module);
      if (mod && it.async !== undefined && it.async !== 0 && !mod.background) {
        throw new BadInputError(`async is not supported for this task: hostwire runs command and shell in the background, not ${it.module}`, it.loc);
      }
      if (mod && !containsTemplate(it.args)) {
        const parsed = mod.args.safeParse(it.args);
        if (!parsed.success) throw new BadInputError(formatArgsError(it.module, parsed.error, it.args), it.loc);
      }
      for (const n of it.notify) {
        if (!isTemplated(n) && !handlerNames.has(n)) throw new BadInputError(`the handler '${n}' is notified but no handler of that name (or listen topic) exists in the play`, it.loc);
      }
    }
  };
  visit(play.preTasks);
  visit(play.tasks);
  visit(play.postTasks);
  visit(play.handlers);
}

function containsTemplate(v: unknown): boolean {
  if (typeof v === 'string') return isTemplated(v);
  if (Array.isArray(v)) return v.some(containsTemplate);
  if (v && typeof v === 'object') return Object.values(v).some(containsTemplate);
  return false;
}

function summarize(hosts: Map<string, HostState>, started: number, interrupted: boolean): RunSummary {
  const stats: RunSummary['stats'] = {};
  const execs: Record<string, number> = {};
  const bytesSent: Record<string, number> = {};
  const failedHosts: string[] = [];
  for (const [name, h] of hosts) {
    stats[name] = h.stats ?? emptyStats();
    execs[name] = h.transport?.stats.execs ?? 0;
    bytesSent[name] = h.transport?.stats.bytesSent ?? 0;
    if (h.failed || h.unreachable) failedHosts.push(name);
  }
  const anyUnreachable = Object.values(stats).some((s) => s.unreachable > 0);
  const anyFailed = [...hosts.values()].some((h) => h.failed);
  const exitCode = interrupted ? EXIT.interrupted : anyUnreachable ? EXIT.unreachable : anyFailed ? EXIT.failed : EXIT.ok;
  return { stats, execs, bytesSent, durationMs: Date.now() - started, exitCode, interrupted, failedHosts };
}

function writeRetryFile(playbookPath: string, hosts: string[]): void {
  const file = playbookPath.replace(/\.ya?ml$/, '') + '.retry';
  try {
    writePrivateFileSync(file, maskText(hosts.join('\n') + '\n'));
  } catch {
    // A read-only playbook dir must not turn a host failure into a crash.
  }
}

export { HostwireError };
