// `hostwire run PLAYBOOK`: ansible-playbook's options, renderers chosen by --json / TTY.
import { keeperFor } from '../transports/keeper/index.js';
import { listPlayTasks, playFieldRenderer, playHeader } from './list-tasks.js';
import type { Command } from 'commander';
import { formatConfirmSummary, type ConfirmFn } from '../engine/runner/confirm.js';
import { runPlaybook, EXIT } from '../engine/runner/run-playbook.js';
import { loadPlaybook } from '../engine/playbook/load-playbook.js';
import { isKnownModule } from '../modules/registry.js';
import { collectionRootsFinder, createFallbackResolver } from '../fallback/resolve.js';
import { formatPending, pendingHostWork } from '../modules/pending.js';
import { loadInventory, selectHosts } from '../engine/inventory/index.js';
import { checkLimit } from '../engine/runner/run-checks.js';
import type { RunEvent, RunSummary } from '../engine/runner/events.js';
import { createPlainRenderer } from '../ui/plain-renderer.js';
import { createJsonRenderer } from '../ui/json-renderer.js';
import { colorsWanted } from '../ui/colors.js';
import { parseExtraVars } from './extra-vars.js';
import { reportError } from './errors.js';
import { BadInputError } from '../errors.js';
import { collect, count, splitList } from './options.js';
import { checkConnection, checkHostKeyChecking, checkReportPath, parseForks } from './run-options.js';
import { collectVaultPasswords, setVaultPasswords } from '../vault/index.js';
import { mergeSettings, type MergedSettings } from './config-merge.js';

interface RunFlags {
  inventory: string[];
  limit?: string;
  extraVars: string[];
  check?: boolean;
  diff?: boolean;
  forks?: string;
  tags: string[];
  skipTags: string[];
  startAtTask?: string;
  syntaxCheck?: boolean;
  listHosts?: boolean;
  listTasks?: boolean;
  forceHandlers?: boolean;
  connection?: 'ssh' | 'local';
  hostKeyChecking?: 'strict' | 'accept-new' | 'off';
  askBecomePass?: boolean;
  wait: boolean;
  lockTimeout?: string;
  json?: boolean;
  report?: string;
  live?: boolean;
  verbose: number;
  rolesPath: string[];
  detailedExitcode?: boolean;
  vaultPasswordFile: string[];
  askVaultPass?: boolean;
  yes?: boolean;
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('run a playbook against an inventory (like ansible-playbook)')
    .argument('<playbook>', 'playbook file')
    .option('-i, --inventory <path>', 'inventory file or directory (repeatable)', collect, [])
    .option('-l, --limit <pattern>', 'further limit the hosts with a pattern')
    .option('-e, --extra-vars <vars>', 'key=value, JSON/YAML, or @file (repeatable)', collect, [])
    .option('-C, --check', 'predict changes without making any')
    .option('-D, --diff', 'show differences in files and state')
    .option('-f, --forks <n>', 'hosts in parallel (default: ansible.cfg forks, else 50)')
    .option('-t, --tags <tags>', 'only run tasks with these tags', splitList, [])
    .option('--skip-tags <tags>', 'skip tasks with these tags', splitList, [])
    .option('--start-at-task <name>', 'start at the task with this name')
    .option('--syntax-check', 'check the playbook, run nothing')
    .option('--list-hosts', 'list the hosts each play would run on')
    .option('--list-tasks', 'list the tasks each play would run')
    .option('--force-handlers', 'run notified handlers even when a host fails')
    .option('-c, --connection <type>', 'ssh or local (run on this machine)')
    .option('--host-key-checking <policy>', 'strict (default), accept-new or off')
    .option('-K, --ask-become-pass', 'ask for the sudo password once')
    .option('--vault-password-file <file>', 'vault password file, or a script printing it (repeatable)', collect, [])
    .option('-J, --ask-vault-pass', 'ask for the vault password (terminal only; HOSTWIRE_VAULT_PASSWORD also works)')
    .option('--no-wait', 'fail at once if another run holds a host lock')
    .option('--lock-timeout <seconds>', 'give up waiting for another run\'s host lock after this long (default 600)')
    .option('--json', 'one JSON event per line on stdout')
    .option('--report <file.html>', 'write a self-contained HTML report of the run (recap, timeline, diffs, failures)')
    .option('--no-live', 'plain output even on a terminal')
    .option('--roles-path <dir>', 'extra role directory (repeatable)', collect, [])
    .option('--detailed-exitcode', 'with --check: exit 3 when changes (drift) were found, 0 when none')
    .option('-v, --verbose', 'more output (-vvv for stack traces)', count, 0)
    .option('-y, --yes', 'apply disruptive changes (uplink move, firewall, route removal) without asking on a terminal')
    .addHelpText('after', `
Examples:
  hostwire run playbooks/site.yml -i inventory/cluster.yml
  hostwire run playbooks/microshift.yml -c local -i localhost, --check --diff
  hostwire run site.yml -i inv.ini --limit 'nodes:!node3' --tags firewall -e mtu=1400
  hostwire run microshift.yml -i inventory.yml --yes        # no questions before the uplink move`)
    .action(async (playbook: string, flags: RunFlags) => {
      process.exitCode = await runCommand(playbook, flags);
    });
}

// Prompts (inquirer), the live view (listr2) and the HTML report load only when used: a plain run
// starts faster (start-up counts in every run's wall time).
async function runCommand(playbook: string, f: RunFlags): Promise<number> {
  let reporting: typeof import('../report/index.js') | undefined;
  let report: ReturnType<typeof import('../report/index.js')['createReportCollector']> | undefined;
  const writeReport = (data: Parameters<typeof import('../report/index.js')['writeReport']>[1]) => {
    try {
      reporting!.writeReport(f.report!, data);
    } catch (err) {
      throw new BadInputError(`--report: cannot write '${f.report}' (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  };
  const signals = { handler: undefined as (() => void) | undefined };
  try {
    checkFlags(f);
    const cfg = mergeSettings(f);
    // Kept connections (ssh_args' ControlPersist): the keeper starts while the playbook loads.
    if (!f.syntaxCheck && !f.listTasks && !f.listHosts) keeperFor(cfg.connectionPersistSec)?.prestart();
    const forks = cfg.forks;
    reporting = f.report ? await import('../report/index.js') : undefined;
    report = reporting?.createReportCollector();
    setVaultPasswords(await collectVaultPasswords({ passwordFiles: cfg.vaultPasswordFiles, ask: f.askVaultPass }));
    if (f.syntaxCheck || f.listTasks || f.listHosts) return await listOnly(playbook, f, cfg);
    const extraVars = parseExtraVars(f.extraVars);
    const becomePassword = cfg.askBecomePass ? await (await import('@inquirer/prompts')).password({ message: 'BECOME password:', mask: false }) : undefined;
    const confirm = terminalConfirm(f);
    const { render, live } = await createRenderer(f, confirm, cfg.config.showCustomStats);
    // pause's prompt is asked on a terminal with plain output only (the live view would redraw over it).
    const prompt = !live && !f.json && !f.yes && process.stdin.isTTY && process.stdout.isTTY ? terminalPrompt : undefined;
    const collector = report;
    const onEvent = collector ? (e: RunEvent) => (render(e), collector.listener(e)) : render;
    const abort = new AbortController();
    const onSigint = interruptHandler(abort);
    signals.handler = onSigint;
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigint);
    const summary = await runPlaybook({
      playbook,
      inventory: cfg.inventory,
      limit: f.limit,
      extraVars,
      check: f.check,
      diff: f.diff,
      verbosity: f.verbose,
      forks,
      tags: f.tags,
      skipTags: f.skipTags,
      startAtTask: f.startAtTask,
      forceHandlers: f.forceHandlers,
      connection: f.connection,
      hostKeyChecking: cfg.hostKeyChecking,
      connectionPersistSec: cfg.connectionPersistSec,
      becomePassword,
      noWait: !f.wait,
      lockTimeoutSec: parseLockTimeout(cfg.lockTimeout),
      rolesPath: cfg.rolesPath,
      connectionDefaults: cfg.connectionDefaults,
      playDefaults: cfg.playDefaults,
      onEvent,
      signal: abort.signal,
      confirm,
      prompt,
    });
    await live?.done();
    if (report) writeReport(report.data());
    return exitCodeOf(summary, f);
  } catch (err) {
    if (report && !(err instanceof BadInputError && err.message.startsWith('--report:'))) {
      try {
        writeReport({ ...report.data(), error: (err as Error)?.message ?? String(err) });
      } catch (writeErr) {
        reportError(writeErr, f.verbose);
      }
    }
    return reportError(err, f.verbose);
  } finally {
    if (signals.handler) {
      process.off('SIGINT', signals.handler);
      process.off('SIGTERM', signals.handler);
    }
  }
}

/** Flag values refused before anything is read or asked. */
function checkFlags(f: RunFlags): void {
  if (f.forks !== undefined) parseForks(f.forks);
  checkConnection(f.connection);
  checkHostKeyChecking(f.hostKeyChecking);
  checkReportPath(f.report);
}

/** --detailed-exitcode: a clean run exits 3 when something changed (drift found by --check), else 0. */
function exitCodeOf(summary: RunSummary, f: RunFlags): number {
  if (!f.detailedExitcode || summary.exitCode !== EXIT.ok) return summary.exitCode;
  return Object.values(summary.stats).some((s) => s.changed > 0) ? 3 : 0;
}

/** On a terminal, disruptive changes are asked first (not with --yes; --check applies nothing). */
function terminalConfirm(f: RunFlags): ConfirmFn | undefined {
  if (!(process.stdin.isTTY && process.stdout.isTTY && !f.yes && !f.check && !f.json)) return undefined;
  return async (req) => {
    process.stdout.write(`\n${formatConfirmSummary(req)}\n`);
    const { confirm: askYesNo } = await import('@inquirer/prompts');
    return askYesNo({ message: `Apply these changes on ${req.host}?`, default: false });
  };
}

/** JSON lines with --json, the live view on a terminal, else plain text. */
/** pause's question on the terminal; the answer is what was typed (hidden unless echo). */
async function terminalPrompt(question: string, echo: boolean): Promise<string> {
  const prompts = await import('@inquirer/prompts');
  return echo ? prompts.input({ message: question }) : prompts.password({ message: question, mask: false });
}

async function createRenderer(f: RunFlags, confirm: ConfirmFn | undefined, showCustomStats?: boolean) {
  // The live view redraws the screen and would fight a prompt: plain output when questions may come.
  const useLive = !confirm && !f.json && f.live !== false && Boolean(process.stdout.isTTY) && !process.env.CI;
  const plain = createPlainRenderer({ write: (s) => process.stdout.write(s), color: colorsWanted(process.stdout), verbosity: f.verbose, diff: Boolean(f.diff), showCustomStats });
  const live = useLive ? (await import('../ui/live-renderer.js')).createLiveRenderer({ write: (s) => process.stdout.write(s), diff: Boolean(f.diff) }) : undefined;
  const render: (e: RunEvent) => void = f.json ? createJsonRenderer((l) => process.stdout.write(l)) : live ? live.listener : plain;
  return { render, live };
}

/** Ctrl-C (or SIGTERM) once: no new tasks start; twice: quit now. */
function interruptHandler(abort: AbortController): () => void {
  let interrupts = 0;
  return () => {
    interrupts++;
    if (interrupts > 1) {
      // Quit now; what a host will still do by itself (a pending uplink move) must not go unsaid.
      const pending = pendingHostWork();
      process.stderr.write(`\n[interrupted again] quitting now${pending.length ? '' : '.'}\n${pending.length ? `${formatPending(pending)}\n` : ''}`);
      process.exit(EXIT.interrupted);
    }
    process.stderr.write('\n[interrupted] no new tasks will start; waiting for running ones (Ctrl-C again to quit now)\n');
    abort.abort();
  };
}

function parseLockTimeout(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v.trim()) || !(n > 0)) throw new BadInputError(`--lock-timeout: expected a number of seconds above 0, got '${v}'`);
  return n;
}

async function listOnly(playbook: string, f: RunFlags, cfg: MergedSettings): Promise<number> {
  const onWarning = (m: string) => process.stderr.write(`[WARNING]: ${m}\n`);
  const pb = await loadPlaybook(playbook, { rolesPath: cfg.rolesPath, collectionRoots: collectionRootsFinder(), knownModule: isKnownModule, resolveModule: createFallbackResolver(), onWarning });
  if (f.syntaxCheck) {
    process.stdout.write(`\nplaybook: ${playbook}\n`);
    return 0;
  }
  const inv = f.listHosts ? await loadInventory(cfg.inventory) : undefined;
  if (inv) checkLimit(inv, f.limit);
  process.stdout.write(`\nplaybook: ${playbook}\n`);
  const extraVars = parseExtraVars(f.extraVars);
  pb.plays.forEach((play, i) => {
    process.stdout.write(playHeader(play, i, extraVars));
    if (inv) {
      const pattern = playFieldRenderer(play, extraVars)(play.hosts);
      const hosts = selectHosts(inv, pattern, { limit: f.limit ? [f.limit] : undefined });
      process.stdout.write(`    pattern: ['${pattern}']\n    hosts (${hosts.length}):\n${hosts.map((h) => `      ${h}\n`).join('')}`);
    }
    if (f.listTasks) {
      process.stdout.write(`    tasks:\n${listPlayTasks(play, { tags: f.tags, skipTags: f.skipTags })}`);
    }
  });
  return 0;
}
