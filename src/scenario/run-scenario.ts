// Molecule's sequence on real lab hosts: create -> prepare -> converge -> idempotence -> check
// -> verify -> destroy. Idempotence and check read the structured run report, never scraped text.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { labDown, labUp, type LabState } from '../lab/index.js';
import { labInventory } from '../lab/index.js';
import { runPlaybook, type RunOptions } from '../engine/runner/run-playbook.js';
import type { HostResult, RunEvent, RunSummary, TaskInfo } from '../engine/runner/events.js';
import { createTransport } from '../transports/index.js';
import { connectionSettings } from '../engine/inventory/index.js';
import { fingerprintDiff, fingerprintHost, type Fingerprint } from './fingerprint.js';
import type { Scenario, Step } from './load-scenario.js';

export interface StepOutcome {
  step: Step;
  ok: boolean;
  seconds: number;
  /** Why it failed: the step, host, task and the command's stderr. */
  detail?: string;
}

export interface ScenarioOptions {
  keep?: boolean;
  /** Only the steps listed (destroy still runs unless keep). */
  onStep?: (o: StepOutcome) => void;
  onEvent?: (e: RunEvent) => void;
  log?: (line: string) => void;
  /** The lab's name; default scenarioLabName(scenario) (a test run gives its own, test/helpers/lab-name.ts). */
  lab?: string;
  /** Ends the scenario early (a test's deadline): the running playbook stops, no later step starts, destroy runs. */
  signal?: AbortSignal;
}

export const scenarioLabName = (scenario: string) => ('t' + scenario.toLowerCase().replace(/[^a-z0-9]/g, '')).slice(0, 12);

/** What a step needs: the scenario, its lab and inventory, and a run of a playbook on it. */
interface StepEnv {
  sc: Scenario;
  lab: string;
  inventory: string;
  log: (line: string) => void;
  run: (playbook: string, extra?: Partial<RunOptions>) => Promise<Report>;
}

/** A step's work: undefined when it passed, else why it failed. */
type StepAction = () => Promise<string | undefined>;

export async function runScenario(sc: Scenario, opts: ScenarioOptions = {}): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = [];
  const lab = opts.lab ?? scenarioLabName(sc.name);
  const tmp = await mkdtemp(path.join(tmpdir(), `hostwire-${lab}-`));
  const inventory = path.join(tmp, 'inventory.yml');
  const env: StepEnv = {
    sc, lab, inventory,
    log: opts.log ?? (() => undefined),
    run: (playbook, extra = {}) => runReport({ playbook, inventory: [inventory], retryFile: false, signal: opts.signal, ...extra }, opts.onEvent),
  };
  const step = async (name: Step, fn: StepAction) => {
    const t0 = Date.now();
    let detail: string | undefined;
    try {
      if (name !== 'destroy') opts.signal?.throwIfAborted();
      detail = await fn();
    } catch (err) {
      detail = (err as Error).message ?? String(err);
    }
    const o: StepOutcome = { step: name, ok: detail === undefined, seconds: (Date.now() - t0) / 1000, detail };
    outcomes.push(o);
    opts.onStep?.(o);
    return o;
  };
  try {
    for (const s of sc.sequence.filter((x) => x !== 'destroy')) {
      const action = stepAction(s, env);
      if (!action) continue;
      if (!goesOn(await step(s, action), sc.expect[s] ?? 'pass')) break;
    }
  } finally {
    if (!opts.keep && sc.sequence.includes('destroy')) {
      await step('destroy', async () => {
        await labDown(lab);
        return undefined;
      });
    }
    await rm(tmp, { recursive: true, force: true });
  }
  return outcomes;
}

/** Applies the step's expectation to its outcome; whether the sequence goes on after it. */
function goesOn(last: StepOutcome, expected: 'pass' | 'fail'): boolean {
  if (expected === 'fail') {
    last.ok = !last.ok;
    last.detail = last.ok ? undefined : `${last.step}: expected this step to fail, but it passed`;
    if (last.ok) return false; // the expected failure happened: nothing after it is meaningful
  }
  return last.ok;
}

/** The work of step `s`, or undefined when the scenario has nothing for it (no prepare/verify playbook). */
function stepAction(s: Step, env: StepEnv): StepAction | undefined {
  const { sc, run } = env;
  switch (s) {
    case 'create': return () => createStep(env);
    case 'prepare': return sc.prepare ? async () => failures('prepare', await run(sc.prepare!)) : undefined;
    case 'converge': return async () => failures('converge', await run(sc.converge));
    case 'idempotence': return () => idempotenceStep(env);
    case 'check': return () => checkStep(env);
    case 'verify': return sc.verify ? async () => failures('verify', await run(sc.verify!)) : undefined;
    default: return undefined;
  }
}

async function createStep({ sc, lab, inventory, log }: StepEnv): Promise<string | undefined> {
  const up = await labUp({ name: lab, kinds: sc.hosts.map((h) => h.kind), packages: sc.packages, onProgress: log });
  log(`lab ${lab}: ${sc.hosts.length} host(s) up in ${up.seconds.toFixed(1)} s`);
  await writeFile(inventory, stringify(scenarioInventory(sc, up.state), { lineWidth: 0 }));
  return up.degraded.length ? `hosts not running: ${up.degraded.map((d) => JSON.stringify(d)).join(', ')}` : undefined;
}

/** The second converge changes nothing (read from the run's structured results). */
async function idempotenceStep({ sc, run }: StepEnv): Promise<string | undefined> {
  const r = await run(sc.converge);
  const f = failures('idempotence', r);
  if (f) return f;
  const changed = r.results.filter((x) => x.result.status === 'changed');
  if (!changed.length) return undefined;
  return `idempotence: the second converge changed ${changed.length} task(s):\n` + changed.map((x) => `  ${x.result.host}: ${taskLabel(x.task)}`).join('\n');
}

/** --check --diff reports no change and leaves every host's fingerprint as it was. */
async function checkStep({ sc, inventory, run }: StepEnv): Promise<string | undefined> {
  const before = await fingerprints(inventory, sc);
  const r = await run(sc.converge, { check: true, diff: true });
  const after = await fingerprints(inventory, sc);
  const problems: string[] = [];
  const f = failures('check', r);
  if (f) problems.push(f);
  for (const x of r.results.filter((y) => y.result.status === 'changed')) problems.push(`  ${x.result.host}: --check reports a change in ${taskLabel(x.task)}`);
  for (const h of Object.keys(before)) {
    const moved = fingerprintDiff(before[h], after[h]);
    if (moved.length) problems.push(`  ${h}: --check changed the host (${moved.join(', ')})`);
  }
  return problems.length ? `check:\n${problems.join('\n')}` : undefined;
}

interface Report {
  summary: RunSummary;
  results: { task: TaskInfo; result: HostResult }[];
}

async function runReport(o: RunOptions, onEvent?: (e: RunEvent) => void): Promise<Report> {
  const results: Report['results'] = [];
  const summary = await runPlaybook({
    ...o,
    onEvent: (e) => {
      if (e.type === 'host_result') results.push({ task: e.task, result: e.result });
      onEvent?.(e);
    },
  });
  return { summary, results };
}

const taskLabel = (t: TaskInfo) => `TASK [${t.role ? `${t.role} : ` : ''}${t.name}] (${t.loc.file}:${t.loc.line})`;

function failures(stepName: string, r: Report): string | undefined {
  const bad = r.results.filter((x) => (x.result.status === 'failed' && !x.result.ignored) || x.result.status === 'unreachable');
  if (!bad.length && r.summary.exitCode === 0) return undefined;
  const lines = bad.map((x) => `  ${x.result.host}: ${taskLabel(x.task)}: ${x.result.msg ?? ''}${x.result.stderr ? `\n    stderr: ${x.result.stderr}` : ''}`);
  return `${stepName}: exit code ${r.summary.exitCode}\n${lines.join('\n')}`;
}

/** The lab's inventory with the scenario's names, groups and vars. */
export function scenarioInventory(sc: Scenario, state: LabState): Record<string, unknown> {
  const labHosts = ((labInventory(state) as { all: { hosts: Record<string, Record<string, unknown>> } }).all.hosts);
  const labNames = Object.keys(labHosts);
  const hosts: Record<string, unknown> = {};
  const groups: Record<string, { hosts: Record<string, unknown>; vars?: Record<string, unknown> }> = {};
  sc.hosts.forEach((h, i) => {
    hosts[h.name] = { ...labHosts[labNames[i]], ...h.vars };
    for (const g of h.groups) (groups[g] ??= { hosts: {} }).hosts[h.name] = {};
  });
  for (const [g, vars] of Object.entries(sc.groupVars)) (groups[g] ??= { hosts: {} }).vars = vars;
  return { all: { hosts, children: groups } };
}

async function fingerprints(inventoryFile: string, sc: Scenario): Promise<Record<string, Fingerprint>> {
  const { loadInventory, hostVars } = await import('../engine/inventory/index.js');
  const inv = await loadInventory([inventoryFile]);
  const out: Record<string, Fingerprint> = {};
  await Promise.all(sc.hosts.map(async (h) => {
    const vars = hostVars(inv, h.name);
    const t = createTransport(h.name, { ...connectionSettings(vars), netns: vars.hostwire_netns as string });
    try {
      await t.connect();
      out[h.name] = await fingerprintHost(t);
    } finally {
      await t.close();
    }
  }));
  return out;
}
