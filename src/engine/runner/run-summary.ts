// The end of a run: the recap's numbers per host, the exit code, and the .retry file of failed hosts.
import { writePrivateFileSync } from '../../private-files.js';
import { maskText } from '../../vault/index.js';
import { emptyStats, type RunSummary } from './events.js';
import type { HostState } from './host-state.js';
import { EXIT } from './run-options.js';

export function summarize(hosts: Map<string, HostState>, started: number, interrupted: boolean): RunSummary {
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

export function writeRetryFile(playbookPath: string, hosts: string[]): void {
  const file = playbookPath.replace(/\.ya?ml$/, '') + '.retry';
  try {
    writePrivateFileSync(file, maskText(hosts.join('\n') + '\n'));
  } catch {
    // A read-only playbook dir must not turn a host failure into a crash.
  }
}
