// A module's output turned into its task result as ansible-core 2.14 does it (action/__init__.py
// _parse_returned_data and _execute_module, executor/task_executor.py): junk around the JSON is
// dropped with a warning, unparseable output is a MODULE FAILURE carrying stdout/stderr, internal
// keys are removed, stdout/stderr get their _lines, a missing `failed` follows rc, `changed` defaults
// to false. The values are the host's data: the runner registers them as data, never as templates.
import type { ModuleResult } from '../modules/types.js';

export interface WorkerOutput {
  rc: number;
  stdout: string;
  stderr: string;
}

/** json_utils._filter_non_json_lines(objects_only=True): the `{ ... }` block and warnings for trailing junk. */
export function filterNonJsonLines(data: string): { json: string; warnings: string[] } {
  const lines = data.split(/\r\n|\r|\n/);
  const start = lines.findIndex((l) => l.trim().startsWith('{'));
  if (start < 0) throw new Error('No start of json char found');
  const rest = lines.slice(start);
  let endOffset = -1;
  for (let i = 0; i < rest.length; i++) {
    if (rest[rest.length - 1 - i]!.trim().endsWith('}')) {
      endOffset = i;
      break;
    }
  }
  if (endOffset < 0) throw new Error('No end of json char found');
  const trailing = rest.slice(rest.length - endOffset);
  const warnings = trailing.some((l) => l.trim()) ? [`Module invocation had junk after the JSON data: ${trailing.join('\n')}`] : [];
  return { json: rest.slice(0, rest.length - endOffset).join('\n'), warnings };
}

type Diff = NonNullable<ModuleResult['diff']>[number];

const diffText = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : `${JSON.stringify(v, null, 4)}\n`;

/** Ansible's diff (a dict or a list of dicts: before/after, *_header, prepared) as hostwire's entries. */
export function toDiffEntries(diff: unknown): Diff[] {
  const list = Array.isArray(diff) ? diff : diff && typeof diff === 'object' ? [diff] : [];
  const out: Diff[] = [];
  for (const d of list as Record<string, unknown>[]) {
    if (!d || typeof d !== 'object') continue;
    const header = [d.before_header, d.after_header].filter((h) => typeof h === 'string').join(' -> ') || undefined;
    if (d.prepared !== undefined) out.push({ header: header ?? 'prepared', after: diffText(d.prepared) });
    if (d.before !== undefined || d.after !== undefined) out.push({ header, before: diffText(d.before) ?? '', after: diffText(d.after) ?? '' });
  }
  return out;
}

/** The task result of one module run. */
export function moduleResult(out: WorkerOutput): ModuleResult {
  let data: Record<string, unknown>;
  const warnings: string[] = [];
  try {
    const filtered = filterNonJsonLines(out.stdout);
    warnings.push(...filtered.warnings);
    const parsed: unknown = JSON.parse(filtered.json);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    data = parsed as Record<string, unknown>;
  } catch {
    return moduleFailure(out);
  }
  for (const k of Object.keys(data)) {
    if ((k.startsWith('_ansible_') && k !== '_ansible_no_log') || k === 'add_host' || k === 'add_group') {
      warnings.push(`Removed unexpected internal key in module return: ${k} = ${JSON.stringify(data[k])}`);
      delete data[k];
    }
  }
  if ('results' in data && !Array.isArray(data.results)) {
    data.ansible_module_results = data.results;
    delete data.results;
    warnings.push("Found internal 'results' key in module return, renamed to 'ansible_module_results'.");
  }
  for (const k of ['stdout', 'stderr'] as const) {
    if (k in data && !(`${k}_lines` in data)) data[`${k}_lines`] = String(data[k] || '').split(/\r\n|\r|\n/).filter((l, i, a) => i < a.length - 1 || l !== '');
  }
  if (warnings.length) data.warnings = [...(Array.isArray(data.warnings) ? data.warnings : []), ...warnings];
  else if (Array.isArray(data.warnings) && data.warnings.length === 0) delete data.warnings;
  if (Array.isArray(data.deprecations) && data.deprecations.length === 0) delete data.deprecations;
  if (!('failed' in data)) data.failed = 'rc' in data && data.rc !== 0 && data.rc !== '0';
  if (!('changed' in data)) data.changed = false;
  const result: ModuleResult = { ...data, changed: Boolean(data.changed), failed: Boolean(data.failed) };
  if (data.diff !== undefined) result.diff = toDiffEntries(data.diff);
  if (result.failed && result.msg === undefined) result.msg = 'MODULE FAILURE';
  return result;
}

function moduleFailure(out: WorkerOutput): ModuleResult {
  const r: ModuleResult = { changed: false, failed: true, msg: 'MODULE FAILURE\nSee stdout/stderr for the exact error', module_stdout: out.stdout, module_stderr: out.stderr, rc: out.rc };
  if (out.stderr.startsWith('Traceback')) r.exception = out.stderr;
  else if (out.stdout.startsWith('Traceback')) r.exception = out.stdout;
  return r;
}
