// Every step of a run is an event; renderers (plain, TTY, JSON) and library users only listen.
import type { SourceLoc } from '../../errors.js';

export type TaskStatus = 'ok' | 'changed' | 'failed' | 'skipped' | 'unreachable';

export interface HostStats {
  ok: number;
  changed: number;
  unreachable: number;
  failed: number;
  skipped: number;
  rescued: number;
  ignored: number;
}

export interface DiffEntry {
  header?: string;
  before?: string;
  after?: string;
}

export interface TaskInfo {
  name: string;
  module: string;
  role?: string;
  loc: SourceLoc;
  handler: boolean;
}

export interface HostResult {
  host: string;
  status: TaskStatus;
  item?: unknown;
  /** Label shown for a loop item (loop_control.label or the item). */
  label?: string;
  msg?: string;
  stdout?: string;
  stderr?: string;
  rc?: number;
  diff?: DiffEntry[];
  /** The task's own `diff:` keyword (over --diff): whether its diff is shown. */
  diffMode?: boolean;
  /** True when failed but ignore_errors applied, or unreachable but ignore_unreachable applied. */
  ignored?: boolean;
  /** When the task was delegated: the host it really ran on. */
  delegatedTo?: string;
  noLog?: boolean;
  durationMs: number;
  /** Full module result (as registered), for -v output and --json. */
  result?: Record<string, unknown>;
}

export type RunEvent =
  | { type: 'run_start'; playbook: string; check: boolean; diff: boolean }
  | { type: 'play_start'; name: string; hosts: string[] }
  | { type: 'task_start'; task: TaskInfo }
  | { type: 'host_result'; task: TaskInfo; result: HostResult }
  | { type: 'warning'; message: string }
  | { type: 'no_hosts'; play: string; pattern: string }
  | { type: 'host_wait'; host: string; message: string }
  | { type: 'play_end'; name: string }
  | { type: 'run_end'; summary: RunSummary };

export interface RunSummary {
  stats: Record<string, HostStats>;
  /** Remote execs per host (facts + probes + changes), bytes sent per host. */
  execs: Record<string, number>;
  bytesSent: Record<string, number>;
  durationMs: number;
  exitCode: number;
  interrupted: boolean;
  /** Hosts that failed or were unreachable (what the retry file lists). */
  failedHosts: string[];
  /** set_stats' custom stats: per host, and the run's own under '_run' (absent when none were set). */
  customStats?: Record<string, Record<string, unknown>>;
}

export type EventListener = (event: RunEvent) => void;

export function emptyStats(): HostStats {
  return { ok: 0, changed: 0, unreachable: 0, failed: 0, skipped: 0, rescued: 0, ignored: 0 };
}

/**
 * Counts one task result as Ansible's recap does (plugins/strategy/__init__.py): `ok` counts every
 * task that ran, changed ones included (ok=5 changed=2: five ran, two of them changed); an ignored
 * failure counts as ok and ignored (and changed when its result says so), and so does an
 * unreachable result under ignore_unreachable.
 */
export function countResult(s: HostStats, r: Pick<HostResult, 'status' | 'ignored' | 'result'>): void {
  if (r.status === 'unreachable' && !r.ignored) s.unreachable++;
  else if (r.status === 'skipped') s.skipped++;
  else if (r.status === 'failed' && !r.ignored) s.failed++;
  else {
    s.ok++;
    if (r.status === 'changed' || (r.status === 'failed' && r.result?.changed === true)) s.changed++;
    if (r.status === 'failed' || r.status === 'unreachable') s.ignored++;
  }
}
