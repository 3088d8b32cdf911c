// Builds the report's data from the run's event stream. Events carry durations, not clock times,
// so each event is stamped when it arrives (emits are synchronous) and a result's start is its
// arrival minus its duration.
import type { DiffEntry, HostResult, HostStats, RunEvent, TaskInfo } from '../engine/runner/events.js';

export interface ReportResult {
  host: string;
  status: HostResult['status'];
  /** Milliseconds since the run started. */
  startMs: number;
  endMs: number;
  msg?: string;
  rc?: number;
  stdout?: string;
  stderr?: string;
  diff: DiffEntry[];
  label?: string;
  ignored?: boolean;
  noLog?: boolean;
  delegatedTo?: string;
}

export interface ReportTask {
  name: string;
  role?: string;
  module: string;
  handler: boolean;
  file: string;
  line?: number;
  startMs: number;
  results: ReportResult[];
}

export interface ReportPlay {
  name: string;
  hosts: string[];
  startMs: number;
  tasks: ReportTask[];
}

export interface ReportData {
  playbook: string;
  check: boolean;
  diff: boolean;
  startedAt: string;
  durationMs: number;
  exitCode?: number;
  interrupted: boolean;
  plays: ReportPlay[];
  stats: Record<string, HostStats>;
  warnings: string[];
  hosts: string[];
  /** The error that stopped the run early, if any. */
  error?: string;
}

export function createReportCollector(now: () => number = Date.now) {
  const t0 = now();
  const data: ReportData = { playbook: '', check: false, diff: false, startedAt: new Date(t0).toISOString(), durationMs: 0, interrupted: false, plays: [], stats: {}, warnings: [], hosts: [] };
  const hostSet = new Set<string>();
  let task: ReportTask | undefined;
  const at = () => now() - t0;
  const playNow = (): ReportPlay => {
    let p = data.plays[data.plays.length - 1];
    if (!p) data.plays.push((p = { name: '(no play)', hosts: [], startMs: at(), tasks: [] }));
    return p;
  };
  const taskFor = (info: TaskInfo): ReportTask => {
    if (task && task.name === info.name && task.file === info.loc.file && task.line === info.loc.line) return task;
    task = { name: info.name, role: info.role, module: info.module, handler: info.handler, file: info.loc.file, line: info.loc.line, startMs: at(), results: [] };
    playNow().tasks.push(task);
    return task;
  };
  const listener = (e: RunEvent): void => {
    switch (e.type) {
      case 'run_start':
        Object.assign(data, { playbook: e.playbook, check: e.check, diff: e.diff });
        return;
      case 'play_start':
        data.plays.push({ name: e.name, hosts: e.hosts, startMs: at(), tasks: [] });
        e.hosts.forEach((h) => hostSet.add(h));
        task = undefined;
        return;
      case 'task_start':
        task = undefined;
        taskFor(e.task);
        return;
      case 'host_result': {
        const end = at();
        taskFor(e.task).results.push(toResult(e.result, end));
        hostSet.add(e.result.host);
        return;
      }
      case 'warning':
      case 'host_wait':
        data.warnings.push(e.message);
        return;
      case 'no_hosts':
        data.warnings.push(`play '${e.play}': no hosts matched '${e.pattern}'`);
        return;
      case 'run_end':
        Object.assign(data, { durationMs: e.summary.durationMs, exitCode: e.summary.exitCode, interrupted: e.summary.interrupted, stats: e.summary.stats });
        Object.keys(e.summary.stats).forEach((h) => hostSet.add(h));
        return;
      default:
        return;
    }
  };
  return { listener, data: (): ReportData => ({ ...data, durationMs: data.durationMs || at(), hosts: [...hostSet] }) };
}

function toResult(r: HostResult, endMs: number): ReportResult {
  const items = (r.result?.items as HostResult[] | undefined) ?? [];
  // diff: false on the task (or around it): no diff kept, as Ansible computes none.
  const diff = r.diffMode === false ? [] : r.diff?.length ? r.diff : items.flatMap((i) => i.diff ?? []);
  const base = { host: r.host, status: r.status, startMs: Math.max(0, endMs - r.durationMs), endMs, label: r.label, ignored: r.ignored, delegatedTo: r.delegatedTo };
  if (r.noLog) return { ...base, noLog: true, diff: [] };
  const failedItem = items.find((i) => i.status === 'failed');
  return {
    ...base,
    msg: r.msg ?? failedItem?.msg,
    rc: r.rc ?? failedItem?.rc,
    stdout: r.stdout ?? failedItem?.stdout,
    stderr: r.stderr ?? failedItem?.stderr,
    diff,
  };
}
