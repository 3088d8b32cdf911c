// Running the sdn_agent role on lab hosts from ava tests: one playbook run with extra vars, its
// events kept so a test can name what changed or failed.
import path from 'node:path';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent, RunSummary } from '../../src/engine/runner/events.js';

export const repoRoot = path.resolve(new URL('../../..', import.meta.url).pathname);
export const fixture = (name: string) => path.join(repoRoot, 'test/roles-lab/fixtures/sdn-agent', name);

export interface RoleRun {
  summary: RunSummary;
  events: RunEvent[];
  /** `host: task` for every changed result. */
  changed: string[];
  /** `host: task: msg` for every failed or unreachable result. */
  failed: string[];
}

export async function runRole(playbook: string, inventory: string, extraVars: Record<string, unknown>, check = false): Promise<RoleRun> {
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [inventory], extraVars, check, diff: check, retryFile: false, rolesPath: [path.join(repoRoot, 'roles')], onEvent: (e) => events.push(e) });
  const pick = (want: (s: string) => boolean, withMsg: boolean) =>
    events.flatMap((e) => (e.type === 'host_result' && want(e.result.status) ? [`${e.result.host}: ${e.task.name}${withMsg ? `: ${e.result.msg ?? ''}` : ''}`] : []));
  return { summary, events, changed: pick((s) => s === 'changed', false), failed: pick((s) => s === 'failed' || s === 'unreachable', true) };
}
