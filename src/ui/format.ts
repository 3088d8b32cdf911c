// Text pieces shared by the plain and live renderers.
import { createTwoFilesPatch } from 'diff';
import type { DiffEntry, HostStats, TaskInfo } from '../engine/runner/events.js';

export const NO_LOG_MSG = "the output has been hidden due to the fact that 'no_log: true' was specified for this result";

export function banner(title: string, width = 80): string {
  const stars = Math.max(3, width - title.length - 1);
  return `${title} ${'*'.repeat(stars)}`;
}

export function taskTitle(t: TaskInfo): string {
  const name = t.role ? `${t.role} : ${t.name}` : t.name;
  return t.handler ? `RUNNING HANDLER [${name}]` : `TASK [${name}]`;
}

export function recapLine(host: string, s: HostStats): string {
  const cell = (k: string, v: number) => `${k}=${v}`.padEnd(k.length + 6);
  return (
    `${host.padEnd(26)} : ` +
    [cell('ok', s.ok), cell('changed', s.changed), cell('unreachable', s.unreachable), cell('failed', s.failed), cell('skipped', s.skipped), cell('rescued', s.rescued), `ignored=${s.ignored}`].join(' ')
  );
}

/** Unified diff for file content; before/after lines for other state. */
export function formatDiff(d: DiffEntry): string {
  const before = d.before ?? '';
  const after = d.after ?? '';
  const multiline = before.includes('\n') || after.includes('\n');
  if (multiline) {
    const name = d.header ?? 'content';
    return createTwoFilesPatch(`before: ${name}`, `after: ${name}`, before, after, undefined, undefined, { context: 3 })
      .split('\n')
      .slice(1)
      .join('\n')
      .trimEnd();
  }
  return `${d.header ? `${d.header}\n` : ''}--- before: ${before}\n+++ after: ${after}`;
}
