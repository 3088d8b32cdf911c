// Output Ansible users recognise: PLAY/TASK banners, per-host status lines, PLAY RECAP.
import type { HostResult, RunEvent, RunSummary, TaskInfo } from '../engine/runner/events.js';
import { banner, formatDiff, NO_LOG_MSG, recapLine, taskTitle } from './format.js';
import { makePaint } from './colors.js';

export interface PlainRendererOptions {
  write(text: string): void;
  color: boolean;
  verbosity: number;
  diff: boolean;
  /** show_custom_stats: set_stats' stats after the recap (Ansible's default callback option). */
  showCustomStats?: boolean;
}

export function createPlainRenderer(o: PlainRendererOptions) {
  const paint = makePaint(o.color);
  const out = (line = '') => o.write(line + '\n');
  const view: View = { o, paint };
  return (e: RunEvent) => {
    switch (e.type) {
      case 'play_start':
        out();
        out(banner(`PLAY [${e.name}]`));
        return;
      case 'no_hosts':
        out(paint('magenta', `[WARNING]: Could not match supplied host pattern, ignoring: ${e.pattern}`));
        out();
        out(banner(`PLAY [${e.play}]`));
        out('skipping: no hosts matched');
        return;
      case 'task_start':
        out();
        out(banner(taskTitle(e.task)));
        return;
      case 'host_result':
        out(hostLine(view, e.task, e.result));
        return;
      case 'warning':
        out(paint('magenta', `[WARNING]: ${e.message}`));
        return;
      case 'host_wait':
        out(paint('magenta', e.message));
        return;
      case 'run_end':
        out();
        out(banner('PLAY RECAP'));
        for (const line of recapLines(view, e.summary)) out(line);
        out();
        if (o.showCustomStats && e.summary.customStats) for (const line of customStatsLines(e.summary.customStats)) out(line);
        return;
    }
  };
}

/** The default callback's CUSTOM STATS block: each host's stats, then the run's (RUN). */
export function customStatsLines(stats: Record<string, Record<string, unknown>>): string[] {
  const lines = [banner('CUSTOM STATS: ')];
  // _dump_results(indent=1, sort_keys=True) with its newlines removed.
  const sorted = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]))
    : Array.isArray(v) ? v.map(sorted) : v);
  const dump = (v: unknown) => JSON.stringify(sorted(v), null, 1).replace(/\n/g, '');
  for (const host of Object.keys(stats).sort()) if (host !== '_run') lines.push(`\t${host}: ${dump(stats[host])}`);
  if (stats._run) lines.push('', `\tRUN: ${dump(stats._run)}`);
  lines.push('');
  return lines;
}

/** What a renderer's lines are drawn with. */
interface View {
  o: PlainRendererOptions;
  paint: ReturnType<typeof makePaint>;
}

function recapLines({ o, paint }: View, summary: RunSummary): string[] {
  const lines: string[] = [];
  for (const [host, s] of Object.entries(summary.stats)) {
    const color = s.failed || s.unreachable ? 'red' : s.changed ? 'yellow' : 'green';
    lines.push(paint(color, recapLine(host, s)));
  }
  if (o.verbosity >= 2) {
    for (const host of Object.keys(summary.stats)) lines.push(`${host}: remote execs=${summary.execs[host] ?? 0} bytes sent=${summary.bytesSent[host] ?? 0}`);
  }
  if (summary.interrupted) lines.push(paint('red', 'Run interrupted: no new tasks were started.'));
  return lines;
}

function hostLine(view: View, task: TaskInfo, r: HostResult): string {
  const { o, paint } = view;
  const target = r.delegatedTo ? `[${r.host} -> ${r.delegatedTo}]` : `[${r.host}]`;
  const hidden = r.noLog;
  const lines: string[] = [];
  const items = (r.result?.items as HostResult[] | undefined) ?? undefined;
  if (items) for (const it of items) lines.push(statusLine(view, it, target, hidden, task));
  switch (r.status) {
    case 'failed': {
      const detail = hidden ? { msg: NO_LOG_MSG } : failureDetail(r);
      lines.push(paint('red', `fatal: ${target}: FAILED! => ${JSON.stringify(detail)}`));
      if (r.ignored) lines.push(paint('cyan', '...ignoring'));
      break;
    }
    case 'unreachable':
      lines.push(paint('red', `fatal: ${target}: UNREACHABLE! => ${JSON.stringify({ changed: false, msg: r.msg, unreachable: true })}`));
      if (r.ignored) lines.push(paint('cyan', '...ignoring'));
      break;
    default:
      // Ansible's callback: "included: FILE for HOST" (v2_playbook_on_include), in the skip colour.
      if (r.status === 'ok' && /^include_(tasks|role)$/.test(task.module) && r.msg?.startsWith('included: ')) lines.push(paint('cyan', `${r.msg} for ${r.host}`));
      else if (!items) lines.push(statusLine(view, r, target, hidden, task));
  }
  if ((r.diffMode ?? o.diff) && !hidden && r.diff?.length) for (const d of r.diff) lines.push(formatDiff(d));
  // A module's warnings (Ansible modules run through the fallback return them), as Ansible's callback prints them.
  const warnings = hidden ? [] : r.result?.warnings;
  if (Array.isArray(warnings)) for (const w of warnings) lines.push(paint('magenta', `[WARNING]: ${String(w)}`));
  return lines.join('\n');
}

function statusLine({ o, paint }: View, r: HostResult, target: string, hidden?: boolean, task?: TaskInfo): string {
  const label = r.label !== undefined ? ` => (item=${hidden ? '(censored due to no_log)' : r.label})` : '';
  const word = r.status === 'skipped' ? 'skipping' : r.status === 'failed' ? 'failed' : r.status;
  const color = r.status === 'ok' ? 'green' : r.status === 'changed' ? 'yellow' : r.status === 'skipped' ? 'cyan' : 'red';
  let line = `${word}: ${target}${label}`;
  // debug's output is shown at every verbosity, as Ansible's callback shows it (_ansible_verbose_always).
  if (task?.module === 'debug' && r.status === 'ok' && !hidden && r.result) return paint(color, `${line} => ${JSON.stringify(debugShown(r.result), null, 4)}`);
  if (o.verbosity >= 1 && !hidden && r.result && r.label === undefined) line += ` => ${JSON.stringify(publicResult(r.result))}`;
  else if (!hidden && r.result && r.label === undefined && r.result.msg !== undefined && (r.status === 'ok') && isDebugLike(r)) line += ` => ${JSON.stringify({ msg: r.result.msg }, null, 4)}`;
  return paint(color, line);
}

/** Ansible's default callback (_clean_results): a debug msg is shown alone; a var without the status keys. */
function debugShown(res: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const msgOnly = 'msg' in res;
  for (const [k, v] of Object.entries(res)) {
    if (k.startsWith('_') || k === 'items' || k === 'exception') continue;
    if (msgOnly ? !['msg', 'warnings', 'deprecations'].includes(k) : ['changed', 'failed', 'skipped', 'invocation', 'skip_reason'].includes(k)) continue;
    out[k] = v;
  }
  return out;
}

const isDebugLike = (r: HostResult) => r.result !== undefined && !('rc' in r.result) && !('changes' in r.result) && r.result.msg !== undefined && !('ansible_facts' in r.result);

function failureDetail(r: HostResult): Record<string, unknown> {
  const d: Record<string, unknown> = { changed: false, msg: r.msg };
  if (r.rc !== undefined) d.rc = r.rc;
  if (r.stderr) d.stderr = r.stderr;
  if (r.stdout) d.stdout = r.stdout;
  return d;
}

function publicResult(res: Record<string, unknown>): Record<string, unknown> {
  const { exception, items, ...rest } = res;
  void exception;
  void items;
  return rest;
}
