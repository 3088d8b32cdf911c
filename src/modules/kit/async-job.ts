// Ansible's `async:` on a host without Python: a command started in its own session, detached from the
// connection, its output kept in ~/.ansible_async/<jid>/ (the async_dir Ansible uses, private to the
// user), killed with its whole process group when its time limit passes (async_wrapper's watchdog).
// async_status and the runner's poll read the job back and give Ansible's result shapes.
import { randomInt } from 'node:crypto';
import type { BecomeOptions, Transport } from '../../transports/transport.js';
import type { BackgroundCommand, ModuleResult } from '../types.js';

export type { BackgroundCommand };
import { quoteWord } from './shell-words.js';
import { pythonSplitLines as splitLines } from './python-lines.js';

export interface LaunchedJob {
  jid: string;
  resultsFile: string;
}

// Ansible job ids: j<digits>.<pid>. Anything else is refused before it reaches a path.
const JID = /^j?\d+\.\d+$/;
export const validJobId = (jid: string): boolean => JID.test(jid);

const JOB_DIR = '"${HOME:-/root}/.ansible_async"';
const NOW = "date '+%Y-%m-%d %H:%M:%S.%N' | cut -c1-26";

// Runs as `setsid sh -c RUNNER hw-async JOBDIR LIMIT`: the command gets a session of its own (so the
// watchdog can kill all it started), the watchdog kills it after LIMIT seconds and says so; when the
// command ends first its rc is written (atomically, last) and the watchdog is ended with this group.
const RUNNER = [
  'j=$1',
  `${NOW} > "$j/start"`,
  'setsid sh -c "$(cat "$j/script")" < "$j/stdin" > "$j/stdout" 2> "$j/stderr" &',
  'c=$!',
  // dash's kill takes no `--`: -PID names the command's process group (its session, from setsid).
  '( sleep "$2"; : > "$j/timedout"; kill -KILL -"$c" 2>/dev/null || kill -KILL "$c" 2>/dev/null ) &',
  'wait "$c"; rc=$?',
  `${NOW} > "$j/end"`,
  'printf "%s\\n" "$rc" > "$j/rc.tmp" && mv -f -- "$j/rc.tmp" "$j/rc"',
  'kill -KILL 0',
].join('\n');

/** Starts the job on the host; returns as soon as it runs in the background. stdin comes over the exec's stdin. */
export async function launchJob(transport: Transport, job: BackgroundCommand, limitSec: number, become?: BecomeOptions): Promise<LaunchedJob> {
  const jid = `j${randomInt(1e11, 1e12 - 1)}`;
  const meta = JSON.stringify({ result: job.result, strip: job.stripEmptyEnds });
  const script = [
    'set -e', 'umask 077',
    `d=${JOB_DIR}`, 'mkdir -p -- "$d"', 'chmod 700 -- "$d"',
    `jid=${jid}.$$`, 'j="$d/$jid"', 'mkdir -- "$j"',
    `printf '%s' ${quoteWord(meta)} > "$j/meta"`,
    `printf '%s' ${quoteWord(job.script)} > "$j/script"`,
    'cat > "$j/stdin"',
    `setsid sh -c ${quoteWord(RUNNER)} hw-async "$j" ${Math.max(1, Math.floor(limitSec))} </dev/null >/dev/null 2>&1 &`,
    'printf "%s\\n%s\\n" "$jid" "$j"',
  ].join('\n');
  const r = await transport.exec(script, { become, stdin: job.stdin ?? '' });
  const [id, file] = r.stdout.trim().split('\n');
  if (r.code !== 0 || !id || !file || !validJobId(id)) {
    throw new Error(`could not start the async job: ${(r.stderr || r.stdout).trim() || `exit ${r.code}`}`);
  }
  return { jid: id, resultsFile: file };
}

/** The job's files as read from the host (base64, so any bytes come back whole). */
interface JobFiles {
  dir: string;
  files: Map<string, string>;
}

async function readJobFiles(transport: Transport, jid: string, become?: BecomeOptions): Promise<JobFiles | undefined> {
  const script = [
    `j=${JOB_DIR}/${quoteWord(jid)}`,
    'printf "%s\\n" "$j"',
    '[ -d "$j" ] || exit 3',
    'for f in meta rc start end timedout stdout stderr; do',
    '  [ -f "$j/$f" ] && printf "%s:%s\\n" "$f" "$(base64 < "$j/$f" | tr -d "\\n")"',
    'done; exit 0',
  ].join('\n');
  const r = await transport.exec(script, { become });
  const lines = r.stdout.split('\n');
  if (r.code === 3) return undefined;
  if (r.code !== 0) throw new Error(`could not read async job ${jid}: ${r.stderr.trim() || `exit ${r.code}`}`);
  const files = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) files.set(line.slice(0, i), Buffer.from(line.slice(i + 1), 'base64').toString('utf8'));
  }
  return { dir: lines[0] ?? '', files };
}

/** Removes a job's files (async_status mode=cleanup, and after a finished job is read). */
export async function removeJob(transport: Transport, jid: string, become?: BecomeOptions): Promise<void> {
  await transport.exec(`rm -rf -- ${JOB_DIR}/${quoteWord(jid)}`, { become });
}

/** Python's timedelta text from two "YYYY-MM-DD HH:MM:SS.ffffff" stamps. */
function delta(start?: string, end?: string): string | null {
  if (!start || !end) return null;
  const ms = (s: string) => Date.parse(s.trim().replace(' ', 'T').slice(0, 23) + 'Z');
  const d = Math.max(0, ms(end) - ms(start));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${Math.floor(d / 3600000)}:${pad(Math.floor(d / 60000) % 60)}:${pad(Math.floor(d / 1000) % 60)}.${pad((d % 1000) * 1000, 6)}`;
}

/**
 * async_status's result (ansible-core 2.14 action/async_status.py over async_wrapper's file): running
 * {started: 1, finished: 0}; finished: the module's result with finished: 1; timed out: 'Timeout exceeded'.
 */
export async function jobStatus(transport: Transport, jid: string, become?: BecomeOptions): Promise<ModuleResult> {
  const base = { changed: false, ansible_job_id: jid, stdout: '', stderr: '', stdout_lines: [] as string[], stderr_lines: [] as string[] };
  const job = await readJobFiles(transport, jid, become);
  if (!job) return { ...base, failed: true, started: 1, finished: 1, msg: 'could not find job' };
  const f = job.files;
  const running = { ...base, results_file: job.dir, started: 1, finished: 0 };
  if (f.has('timedout')) return { ...running, finished: 1, failed: true, msg: 'Timeout exceeded' };
  if (!f.has('rc')) return running;
  let meta: { result?: ModuleResult; strip?: boolean };
  try {
    meta = JSON.parse(f.get('meta') ?? '{}');
  } catch {
    return { ...running, finished: 1, failed: true, msg: `Could not parse job output: ${f.get('meta')}` };
  }
  const rc = Number((f.get('rc') ?? '').trim());
  const strip = (s: string) => (meta.strip === false ? s : s.replace(/[\r\n]+$/, ''));
  const stdout = strip(f.get('stdout') ?? '');
  const stderr = strip(f.get('stderr') ?? '');
  const start = f.get('start')?.trim() ?? null;
  const end = f.get('end')?.trim() ?? null;
  return {
    ...running, ...meta.result, finished: 1, rc, stdout, stderr, stdout_lines: splitLines(stdout), stderr_lines: splitLines(stderr),
    start, end, delta: delta(start ?? undefined, end ?? undefined),
    ...(rc !== 0 ? { failed: true, msg: 'non-zero return code' } : {}),
  };
}
