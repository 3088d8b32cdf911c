// --json: one event per line, stable for installers to parse. Results marked no_log keep only
// their status; exceptions are reduced to their message.
import type { RunEvent } from '../engine/runner/events.js';

export function createJsonRenderer(write: (line: string) => void) {
  return (e: RunEvent) => write(JSON.stringify(toWire(e)) + '\n');
}

export function toWire(e: RunEvent): Record<string, unknown> {
  if (e.type !== 'host_result') return { ...e };
  const r = e.result;
  const base = { type: e.type, task: { name: e.task.name, role: e.task.role, module: e.task.module, handler: e.task.handler, file: e.task.loc.file, line: e.task.loc.line }, host: r.host, status: r.status, changed: r.status === 'changed', duration_ms: r.durationMs };
  if (r.noLog) return { ...base, no_log: true };
  const { exception, items, ...result } = r.result ?? {};
  void exception;
  void items;
  return { ...base, msg: r.msg, ignored: r.ignored, diff: r.diff, item: r.label, delegated_to: r.delegatedTo, result };
}
