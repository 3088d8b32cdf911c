// A playbook run against one lab host for lab tests of modules: writes the playbook into the test's
// folder, runs it through the engine and gives each task's result by name (`outcome` is the task's
// status, as a module may register a `status` of its own).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent, RunSummary } from '../../src/engine/runner/events.js';
import type { LabHost } from './lab-host.js';

export interface PlayRun {
  events: RunEvent[];
  summary: RunSummary;
  /** The host's changed count in the recap. */
  changed: number;
  result(task: string): Record<string, any>;
}

export type LabPlay = (name: string, yaml: string, o?: { check?: boolean; diff?: boolean; mayFail?: boolean }) => Promise<PlayRun>;

export function labPlay(host: LabHost, dir: string): LabPlay {
  const inventory = path.join(dir, 'inventory.yml');
  writeFileSync(inventory, labInventoryYaml(host.state));
  const name0 = host.state.hosts[0].name;
  return async (name, yaml, o = {}) => {
    const playbook = path.join(dir, `${name}.yml`);
    writeFileSync(playbook, yaml);
    const events: RunEvent[] = [];
    const summary = await runPlaybook({ playbook, inventory: [inventory], check: o.check ?? false, diff: o.diff, retryFile: false, onEvent: (e) => events.push(e) });
    const failed = events.flatMap((e) => (e.type === 'host_result' && e.result.status === 'failed' ? [`${e.task.name}: ${e.result.msg}`] : []));
    if (summary.exitCode !== 0 && !o.mayFail) throw new Error(`${name}: exit ${summary.exitCode}\n${failed.join('\n')}`);
    const result = (task: string) => {
      const e = events.find((x) => x.type === 'host_result' && x.task.name === task);
      if (!e || e.type !== 'host_result') throw new Error(`${name}: no result for ${task}`);
      return { outcome: e.result.status, ...(e.result.msg !== undefined ? { msg: e.result.msg } : {}), ...(e.result.result as Record<string, unknown>) };
    };
    return { events, summary, changed: summary.stats[name0]?.changed ?? 0, result };
  };
}
