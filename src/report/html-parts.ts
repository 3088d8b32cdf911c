// Small HTML building blocks for the report: escaping, durations, status colours, diffs.
import type { DiffEntry } from '../engine/runner/events.js';
import { formatDiff } from '../ui/format.js';

export const esc = (s: unknown): string =>
  String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function fmtMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export const STATUS_COLORS: Record<string, string> = {
  ok: '#2e9d4f',
  changed: '#d89a00',
  failed: '#d13c3c',
  unreachable: '#8e1b1b',
  skipped: '#3a9fbf',
  ignored: '#e07b6b',
};

export const statusKey = (status: string, ignored?: boolean) => (status === 'failed' && ignored ? 'ignored' : status);

export function badge(status: string, ignored?: boolean): string {
  const k = statusKey(status, ignored);
  return `<span class="badge" style="background:${STATUS_COLORS[k] ?? '#777'}">${esc(k === 'ignored' ? 'failed (ignored)' : k)}</span>`;
}

/** A unified diff with added/removed lines coloured. */
export function diffHtml(d: DiffEntry): string {
  const lines = formatDiff(d).split('\n').map((l) => {
    const cls = l.startsWith('+++') || l.startsWith('---') ? 'dh' : l.startsWith('@@') ? 'dr' : l.startsWith('+') ? 'da' : l.startsWith('-') ? 'dd' : '';
    return `<span class="dl ${cls}">${esc(l) || ' '}</span>`;
  });
  return `<pre class="diff">${lines.join('')}</pre>`;
}

export function pre(label: string, text: string | undefined, cls = ''): string {
  if (text === undefined || text === '') return '';
  return `<div class="out"><div class="out-label">${esc(label)}</div><pre class="${cls}">${esc(text)}</pre></div>`;
}
