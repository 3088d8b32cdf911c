// Engine tests run real playbooks through the local transport in a temp dir.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runPlaybook, type RunOptions } from '../../src/engine/runner/run-playbook.js';
import type { HostResult, RunEvent, RunSummary, TaskInfo } from '../../src/engine/runner/events.js';

export interface Workspace {
  dir: string;
  write(rel: string, content: string): string;
  cleanup(): void;
}

export function workspace(): Workspace {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-engine-'));
  return {
    dir,
    write(rel, content) {
      const p = path.join(dir, rel);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, content);
      return p;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A workspace removed when the test ends, with an inventory of local hosts (the usual start of an engine test). */
export function localWorkspace(t: { teardown(fn: () => void): void }, names = ['h1'], extra = ''): Workspace {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, names, extra);
  return ws;
}

/** An inventory of N local "hosts" (all this machine, each with its own work dir var). */
export function localInventory(ws: Workspace, names = ['h1', 'h2'], extra = ''): string {
  const lines = ['[nodes]', ...names.map((n) => `${n} ansible_connection=local work=${ws.dir}/${n}`), extra];
  return ws.write('inventory.ini', lines.join('\n') + '\n');
}

export interface Collected {
  summary: RunSummary;
  events: RunEvent[];
  results: { task: TaskInfo; result: HostResult }[];
  /** "host: status" lines per task name, in order, for readable assertions. */
  byTask(name: string): Record<string, string>;
  tasksRun(): string[];
}

export async function run(ws: Workspace, playbookYaml: string, opts: Partial<RunOptions> = {}): Promise<Collected> {
  const playbook = ws.write('site.yml', playbookYaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(ws.dir, 'inventory.ini')], retryFile: false, ...opts, onEvent: (e) => events.push(e) } as RunOptions);
  const results = events.flatMap((e) => (e.type === 'host_result' ? [{ task: e.task, result: e.result }] : []));
  return {
    summary,
    events,
    results,
    byTask(name) {
      const out: Record<string, string> = {};
      for (const r of results) if (r.task.name === name) out[r.result.host] = r.result.status;
      return out;
    },
    tasksRun: () => events.flatMap((e) => (e.type === 'task_start' ? [(e.task.handler ? 'HANDLER ' : '') + e.task.name] : [])),
  };
}
