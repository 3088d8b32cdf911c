// Runs one command and measures it: wall time, CPU time of the command and every child it waited
// for, and peak memory twice: GNU time's %M (the largest single process) and the sampled sum over
// the whole process tree (every 100 ms; ansible's forks, hostwire's netns relay).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** Sum of RSS over `root` and all its descendants, from /proc. */
export function treeRssKb(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(d);
      const ppid = Number(f[1]);
      rss.set(pid, Number(f[21]) * PAGE_KB);
      const l = children.get(ppid) ?? [];
      l.push(pid);
      children.set(ppid, l);
    } catch { /* gone */ }
  }
  let total = 0;
  const todo = [root];
  while (todo.length) {
    const p = todo.pop()!;
    total += rss.get(p) ?? 0;
    todo.push(...(children.get(p) ?? []));
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
