// One self-contained HTML page for a run (inline CSS and JS, nothing fetched): the recap, a
// per-host timeline of tasks, every change with its diff, and failures with their output.
import { maskText } from '../vault/secrets.js';
import type { ReportData, ReportResult, ReportTask } from './collect.js';
import { badge, diffHtml, esc, fmtMs, pre, STATUS_COLORS, statusKey } from './html-parts.js';
import { CSS, JS } from './style.js';

interface Flat {
  play: string;
  task: ReportTask;
  r: ReportResult;
  id: string;
}

export function renderReportHtml(d: ReportData): string {
  const flat: Flat[] = [];
  d.plays.forEach((p, pi) => p.tasks.forEach((t, ti) => t.results.forEach((r, ri) => flat.push({ play: p.name, task: t, r, id: `r-${pi}-${ti}-${ri}` }))));
  const failedRun = (d.exitCode ?? 0) !== 0 || d.error !== undefined;
  const title = `hostwire run: ${d.playbook.split('/').pop() ?? d.playbook}`;
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body>
<header><h1>${esc(title)} <span class="pill" id="run-status" style="background:${failedRun ? STATUS_COLORS.failed : STATUS_COLORS.ok}">${failedRun ? (d.exitCode !== undefined ? `failed (exit ${d.exitCode})` : 'stopped by an error') : 'success'}</span></h1>
<div class="meta"><span>playbook: ${esc(d.playbook)}</span><span>started: ${esc(d.startedAt)}</span><span>duration: ${fmtMs(d.durationMs)}</span><span>hosts: ${d.hosts.length}</span>${d.check ? '<span>check mode</span>' : ''}${d.diff ? '<span>diff</span>' : ''}${d.interrupted ? '<span>interrupted</span>' : ''}</div></header>
<main>
${recap(d)}
${timeline(d, flat)}
${changes(flat)}
${failures(flat, d.error)}
${tasksPerHost(d, flat)}
${d.warnings.length ? `<section id="warnings"><h2>Warnings</h2><ul>${d.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></section>` : ''}
<p class="muted">Written by hostwire. This page is self-contained: it needs no network.</p>
</main><script>${JS}</script></body></html>
`;
  return maskText(html);
}

function recap(d: ReportData): string {
  const keys = ['ok', 'changed', 'unreachable', 'failed', 'skipped', 'rescued', 'ignored'] as const;
  const rows = Object.entries(d.stats).map(([host, s]) => {
    const cells = keys.map((k) => `<td class="num${s[k] ? '' : ' zero'}" data-k="${k}">${s[k] ? `<b style="color:${STATUS_COLORS[k] ?? '#1d232a'}">${s[k]}</b>` : 0}</td>`).join('');
    return `<tr data-host="${esc(host)}"><td><b>${esc(host)}</b></td>${cells}</tr>`;
  });
  return `<section id="recap"><h2>Play recap</h2><table><thead><tr><th>host</th>${keys.map((k) => `<th class="num">${k}</th>`).join('')}</tr></thead><tbody>${rows.join('') || '<tr><td colspan="8" class="muted">no hosts ran</td></tr>'}</tbody></table></section>`;
}

function timeline(d: ReportData, flat: Flat[]): string {
  const total = Math.max(1, d.durationMs, ...flat.map((f) => f.r.endMs));
  const pct = (ms: number) => `${((ms / total) * 100).toFixed(3)}%`;
  const rows = d.hosts.map((host) => {
    const bars = flat.filter((f) => f.r.host === host).map((f) => {
      const k = statusKey(f.r.status, f.r.ignored);
      const tip = `${f.task.name} - ${k} - ${fmtMs(f.r.endMs - f.r.startMs)} (at +${fmtMs(f.r.startMs)})`;
      return `<div class="tl-bar" data-target="${f.id}" title="${esc(tip)}" style="left:${pct(f.r.startMs)};width:${pct(f.r.endMs - f.r.startMs)};background:${STATUS_COLORS[k]}"></div>`;
    });
    return `<div class="tl-row"><div class="tl-host" title="${esc(host)}">${esc(host)}</div><div class="tl-track">${bars.join('')}</div></div>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => `<span>${fmtMs(total * f)}</span>`).join('');
  const legend = ['ok', 'changed', 'failed', 'ignored', 'skipped', 'unreachable'].map((k) => `<span><i style="background:${STATUS_COLORS[k]}"></i>${k}</span>`).join('');
  return `<section id="timeline"><h2>Timeline</h2><div class="legend">${legend}</div>${rows.join('')}<div class="tl-axis">${ticks}</div></section>`;
}

const where = (f: Flat) => `${esc(f.play)} · ${esc(f.task.file)}${f.task.line ? `:${f.task.line}` : ''} · ${esc(f.task.module)}`;
const taskLabel = (t: ReportTask) => `${t.handler ? 'HANDLER ' : ''}${t.role ? `${esc(t.role)} : ` : ''}${esc(t.name)}`;

function changes(flat: Flat[]): string {
  const changed = flat.filter((f) => f.r.status === 'changed');
  const cards = changed.map((f) => {
    const body = f.r.noLog ? '<p class="muted">hidden (no_log)</p>' : `${f.r.msg ? `<div>${esc(f.r.msg)}</div>` : ''}${f.r.diff.map(diffHtml).join('') || pre('stdout', f.r.stdout) || '<p class="muted">no diff recorded</p>'}`;
    return `<div class="card change" id="c-${f.id}"><h3>${taskLabel(f.task)} — ${esc(f.r.host)}${f.r.label ? ` (item ${esc(f.r.label)})` : ''}</h3><div class="where">${where(f)}</div>${body}</div>`;
  });
  return `<section id="changes"><h2>Changes (${changed.length})</h2>${cards.join('') || '<p class="muted">nothing changed</p>'}</section>`;
}

function failures(flat: Flat[], error?: string): string {
  const failed = flat.filter((f) => f.r.status === 'failed' || f.r.status === 'unreachable');
  const cards = failed.map((f) => {
    const body = f.r.noLog ? '<p class="muted">hidden (no_log)</p>' : `${pre('message', f.r.msg)}${f.r.rc !== undefined ? `<div class="out-label">rc = ${f.r.rc}</div>` : ''}${pre('stderr', f.r.stderr, 'stderr')}${pre('stdout', f.r.stdout)}`;
    return `<div class="card failed" id="f-${f.id}"><h3>${taskLabel(f.task)} — ${esc(f.r.host)} ${badge(f.r.status, f.r.ignored)}</h3><div class="where">${where(f)}</div>${body}</div>`;
  });
  const stop = error ? `<div class="card failed" id="run-error"><h3>The run stopped with an error</h3>${pre('error', error, 'stderr')}</div>` : '';
  return `<section id="failures"><h2>Failures (${failed.length + (error ? 1 : 0)})</h2>${stop}${cards.join('') || (stop ? '' : '<p class="muted">no failures</p>')}</section>`;
}

function tasksPerHost(d: ReportData, flat: Flat[]): string {
  const blocks = d.hosts.map((host) => {
    const rows = flat.filter((f) => f.r.host === host).map((f) =>
      `<tr id="${f.id}" class="st-${f.r.status}"><td class="num">+${fmtMs(f.r.startMs)}</td><td class="num">${fmtMs(f.r.endMs - f.r.startMs)}</td><td>${badge(f.r.status, f.r.ignored)}</td><td>${taskLabel(f.task)}${f.r.label ? ` <span class="muted">(${esc(f.r.label)})</span>` : ''}</td><td class="muted">${esc(f.task.module)}</td></tr>`);
    return `<details class="host-tasks" data-host="${esc(host)}"><summary>${esc(host)} — ${rows.length} task results</summary><table><thead><tr><th class="num">start</th><th class="num">took</th><th>status</th><th>task</th><th>module</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
  });
  return `<section id="tasks"><h2>Tasks per host</h2><div class="toolbar"><label><input type="checkbox" id="only-changes"> only changed and failed</label></div>${blocks.join('')}</section>`;
}
