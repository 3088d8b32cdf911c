// Waiting for a lab to be gone entirely: state, overlays, namespaces, cgroup folders, processes, taps.
import type { ExecutionContext } from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { labCgroupDirs, labDir } from '../../src/lab/names.js';
import { isAlive, sleep } from '../../src/lab/run.js';
import type { LabState, LabUpOptions } from '../../src/lab/index.js';

/** What is still there of lab `lab` (empty: nothing). */
export async function labLeftovers(lab: string, pids: number[]): Promise<string[]> {
  const left: string[] = [];
  const { stdout } = await execa('ip', ['netns', 'list']);
  for (const l of stdout.split('\n')) if (l === `hw-${lab}` || l.startsWith(`hw-${lab}-`) || l.startsWith(`hw-${lab} `)) left.push(`netns ${l}`);
  if (readFileSync('/proc/self/mountinfo', 'utf8').includes(`${labDir(lab)}/`)) left.push('mounts');
  for (const c of labCgroupDirs(lab)) if (existsSync(c)) left.push(c);
  if (existsSync(labDir(lab))) left.push(labDir(lab));
  for (const p of pids) if (await isAlive(p)) left.push(`pid ${p}`);
  return left;
}

/** Polls until the lab is gone (its watchdog works asynchronously); fails the test naming what is left. */
export async function assertLabGoneWithin(t: ExecutionContext, lab: string, pids: number[], ms: number): Promise<number> {
  const started = Date.now();
  let left = await labLeftovers(lab, pids);
  while (left.length && Date.now() - started < ms) {
    await sleep(250);
    left = await labLeftovers(lab, pids);
  }
  t.deepEqual(left, [], `lab ${lab} not gone after ${ms / 1000} s`);
  return (Date.now() - started) / 1000;
}

/** Starts test/helpers/lab-owner-child.js with these options; resolves with the child and its lab state once up. */
export function ownedLabInChild(options: LabUpOptions, timeoutMs: number): Promise<{ child: ChildProcess; state: LabState; log: () => string }> {
  const script = new URL('./lab-owner-child.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`lab not up after ${timeoutMs / 1000} s:\n${err}`)); }, timeoutMs);
    child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^READY (.*)$/m.exec(out);
      if (m) { clearTimeout(timer); resolve({ child, state: JSON.parse(m[1]!) as LabState, log: () => err }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`lab child exited (${code}) before the lab was up:\n${err}`)); });
  });
}

/** SIGKILL and wait for the exit (a killed test worker runs no teardown at all). */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
