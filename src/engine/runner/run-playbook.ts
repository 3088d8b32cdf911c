// The library entry point: load inventory and playbook, run every play, return the summary.
// `import { runPlaybook } from 'hostwire'` gives installers the same typed events the CLI renders.
import { trace } from '../../transports/trace.js';
import { HostwireError } from '../../errors.js';
import { loadPlaybook } from '../playbook/load-playbook.js';
import { loadPlayModules } from './task-modules.js';
import type { PlayDef, Playbook, Vars } from '../playbook/types.js';
import { loadInventory, loadVarsDir, hostVars, type Inventory } from '../inventory/index.js';
import { LockInterruptedError } from '../../transports/index.js';
import { assembleFacts, gatherFacts } from '../../facts/index.js';
import { splitBatch } from '../../probe/batch.js';
import { isKnownModule } from '../../modules/registry.js';
import { collectionRootsFinder, createFallbackResolver } from '../../fallback/resolve.js';
import type { RunEvent, RunSummary } from './events.js';
import { PlayRunner } from './run-play.js';
import type { PlayRunOptions } from './play-run.js';
import { checkLimit, checkPlays, checkStartAtTask } from './run-checks.js';
import { serializeConfirm } from './confirm.js';
import { rootScope, taskVars, type RunVarsContext } from './task-vars.js';
import { maskValue, registerSecretVars } from '../../vault/index.js';
import { applyPlayDefaults } from './config-defaults.js';
import { createRunHosts, type RunHosts } from './run-hosts.js';
import { loadVarsFiles, resolvePlayHosts } from './play-setup.js';
import { summarize, writeRetryFile } from './run-summary.js';
import type { RunOptions } from './run-options.js';
import { CustomStats } from './custom-stats.js';
import { runInventory } from './run-inventory.js';

export type { ConnectionDefaults, PlayDefaults } from './config-defaults.js';
export { EXIT, type RunOptions } from './run-options.js';

/** What every play of one run shares. */
interface RunContext {
  opts: RunOptions;
  playbook: Playbook;
  inv: Inventory;
  hosts: RunHosts;
  emit: (e: RunEvent) => void;
  /** The options each play's runner gets, but for the play's own connect. */
  playOptions: Omit<PlayRunOptions, 'connect'>;
}

export async function runPlaybook(opts: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  // Secrets (vault values, hostwire_secret_vars) are masked before any listener sees an event.
  const emit = (e: RunEvent) => opts.onEvent?.(maskValue(e));
  const t0 = performance.now();
  const playbook = await loadPlaybook(opts.playbook, { rolesPath: opts.rolesPath, collectionRoots: collectionRootsFinder(), knownModule: isKnownModule, resolveModule: createFallbackResolver(), onWarning: (message) => emit({ type: 'warning', message }) });
  trace('controller', 'playbook loaded', t0);
  await loadPlayModules(playbook.plays);
  trace('controller', 'modules loaded', t0);
  checkPlays(playbook.plays, opts.extraVars ?? {});
  checkStartAtTask(playbook.plays, opts.startAtTask);
  const inv = await loadInventory(opts.inventory);
  trace('controller', 'inventory loaded', t0);
  checkLimit(inv, opts.limit);
  // group_vars/ and host_vars/ beside the playbook, as Ansible reads them (above the inventory's own).
  const hosts = createRunHosts(opts, inv, [await loadVarsDir(playbook.dir, inv)], emit);
  let interrupted = false;
  opts.signal?.addEventListener('abort', () => (interrupted = true), { once: true });
  const customStats = new CustomStats();
  const run: RunContext = { opts, playbook, inv, hosts, emit, playOptions: { ...playOptions(opts, hosts, emit, () => interrupted), inventory: runInventory(inv, hosts), customStats } };

  emit({ type: 'run_start', playbook: playbook.path, check: Boolean(opts.check), diff: Boolean(opts.diff) });
  try {
    for (const play of playbook.plays) {
      if (interrupted) break;
      if ((await runPlay(run, play)) === 'interrupted') break;
    }
  } finally {
    await hosts.closeAll();
  }
  const summary = summarize(hosts.states, started, interrupted);
  if (customStats.byHost.size) summary.customStats = customStats.toJSON();
  if (summary.failedHosts.length && opts.retryFile !== false) writeRetryFile(playbook.path, summary.failedHosts);
  emit({ type: 'run_end', summary });
  return summary;
}

/** One play on its hosts; 'interrupted' when the run's interrupt ended a lock wait. */
async function runPlay(run: RunContext, play: PlayDef): Promise<'done' | 'interrupted'> {
  const { opts, hosts, emit } = run;
  const names = resolvePlayHosts(run.inv, play, opts.extraVars ?? {}, opts.limit);
  if (names.length === 0) {
    emit({ type: 'no_hosts', play: play.name, pattern: play.hosts });
    return 'done';
  }
  const playHosts = names.map(hosts.hostState);
  applyPlayDefaults(play, opts.playDefaults, playHosts);
  emit({ type: 'play_start', name: play.name, hosts: names });
  const vctx = await playVarsContext(run, play, names);
  for (const h of playHosts) registerSecretVars(taskVars(vctx, h, rootScope(play)));
  const runner = new PlayRunner(play, vctx, { ...run.playOptions, connect: (h) => hosts.connect(h, play) });
  const restore = hosts.setAsideFor(playHosts, play);
  try {
    trace('controller', `play start (${playHosts.length} hosts)`, 0);
    await runner.run(playHosts);
  } catch (err) {
    // A first Ctrl-C / SIGTERM ends a lock wait: no task started there, the recap follows.
    if (err instanceof LockInterruptedError && run.playOptions.interrupted()) return 'interrupted';
    throw err;
  } finally {
    await restore();
  }
  emit({ type: 'play_end', name: play.name });
  return 'done';
}

async function playVarsContext(run: RunContext, play: PlayDef, names: string[]): Promise<RunVarsContext> {
  const extraVars = run.opts.extraVars ?? {};
  return {
    play,
    playFileVars: await loadVarsFiles(play, extraVars),
    extraVars,
    hosts: run.hosts.states,
    inventoryHosts: {
      names: [...run.inv.hosts.keys()],
      vars: (name) => run.hosts.inventoryVarsOf(name),
      dataKeys: (name) => new Set(run.inv.hosts.get(name)?.dataKeys ?? []),
    },
    playHosts: names,
    groups: (hostVars(run.inv, names[0]).groups as Record<string, string[]>) ?? {},
    check: Boolean(run.opts.check),
    diff: Boolean(run.opts.diff),
    playbookDir: run.playbook.dir,
    verbosity: run.opts.verbosity,
  };
}

function playOptions(opts: RunOptions, hosts: RunHosts, emit: (e: RunEvent) => void, interrupted: () => boolean): Omit<PlayRunOptions, 'connect'> {
  return {
    check: Boolean(opts.check),
    diff: Boolean(opts.diff),
    verbosity: opts.verbosity ?? 0,
    forks: opts.forks ?? 50,
    forceHandlers: Boolean(opts.forceHandlers),
    tags: opts.tags ?? [],
    skipTags: opts.skipTags ?? [],
    startAtTask: opts.startAtTask,
    emit,
    lockHosts: hosts.lockHosts,
    gatherFacts: async (h, subset, read) => (read !== undefined ? assembleFacts(splitBatch(read), subset) : await gatherFacts(h.transport!, subset)) as unknown as Vars,
    delegateHost: hosts.delegateHost,
    userHost: hosts.userHost,
    becomePassword: opts.becomePassword,
    interrupted,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    // Hosts run in parallel; their questions are asked one at a time. Kept under --check too: a
    // task with check_mode: false applies for real there (execModule never asks in check mode).
    confirm: opts.confirm ? serializeConfirm(opts.confirm) : undefined,
    prompt: opts.prompt,
  };
}

export { HostwireError };
