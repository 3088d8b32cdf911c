// Runs one command and measures it: wall time, CPU time of the command and every child it waited
// for, and peak memory twice: GNU time's %M (the largest single process) and the sampled sum over
// the whole process tree (every 100 ms; ansible's forks, hostwire's netns relay).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from './cleanup.js';

export interface Measured {
  wallMs: number;
  cpuMs: number;
  maxRssKb: number;
  treeRssKb: number;
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunSpec {
  argv: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Give up (SIGKILL) after this long. */
  timeoutMs?: number;
}

const PAGE_KB = 4;

/** Every pid's children, from each process's ppid (a kernel without CONFIG_PROC_CHILDREN). */
function childrenByScan(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch { /* gone */ }
  }
  return children;
}

const HAVE_CHILDREN_FILES = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/** The children of `pid`, from each of its threads' /proc/<pid>/task/<tid>/children. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
      } catch { /* thread gone */ }
    }
  } catch { /* process gone */ }
  return out;
}

/**
 * Sum of RSS over `root` and all its descendants, from /proc. Walks down from root through the
 * children lists: reading every process's stat instead cost ~25 ms a sample on a machine with ~400
 * processes (a quarter of a core at 10 samples a second), taken from the run being measured.
 */
export function treeRssKb(root: number): number {
  const scanned = HAVE_CHILDREN_FILES ? undefined : childrenByScan();
  let total = 0;
  const todo = [root];
  const seen = new Set<number>();
  while (todo.length) {
    const p = todo.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      total += Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[21]) * PAGE_KB;
    } catch {
      continue; // gone
    }
    todo.push(...(scanned ? scanned.get(p) ?? [] : childrenOf(p)));
  }
  return total;
}

export async function measure(spec: RunSpec): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'hwbench-time-'));
  const out = join(dir, 'time');
  const started = process.hrtime.bigint();
  const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', '-o', out, ...spec.argv], {
    cwd: spec.cwd, env: { ...process.env, ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so an interrupted bench can end the whole measured tree.
    detached: true,
  });
  const forget = onCleanup(async () => { if (child.pid) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } } });
  const so: Buffer[] = [];
  const se: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => so.push(d));
  child.stderr.on('data', (d: Buffer) => se.push(d));
  let tree = 0;
  const sample = () => { if (child.pid) tree = Math.max(tree, treeRssKb(child.pid)); };
  const timer = setInterval(sample, 100);
  const killer = spec.timeoutMs ? setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, spec.timeoutMs) : undefined;
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 255)));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  forget();
  clearInterval(timer);
  if (killer) clearTimeout(killer);
  let cpuMs = 0;
  let maxRssKb = 0;
  try {
    const line = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ');
    cpuMs = (Number(line[1]) + Number(line[2])) * 1000;
    maxRssKb = Number(line[3]);
  } catch { /* killed before time wrote */ }
  rmSync(dir, { recursive: true, force: true });
  return { wallMs, cpuMs, maxRssKb, treeRssKb: Math.max(tree, maxRssKb), code, stdout: Buffer.concat(so).toString(), stderr: Buffer.concat(se).toString() };
}

export interface Stat { median: number; min: number; max: number; n: number }

export function stat(xs: number[]): Stat {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  const median = n === 0 ? NaN : n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  return { median, min: s[0] ?? NaN, max: s[n - 1] ?? NaN, n };
}
