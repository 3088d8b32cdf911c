// Is a lab (or one host) actually alive? Pids in state.json are trusted only while they still sit in
// the host's own cgroup folder, since a crash plus pid reuse could point them at anything.
import { readFile } from 'node:fs/promises';
import { isAlive } from './run.js';
import type { HostState, LabState } from './state.js';

export async function pidBelongsTo(pid: number | undefined, lab: string, host: HostState): Promise<boolean> {
  if (!pid || !(await isAlive(pid))) return false;
  const cg = await readFile(`/proc/${pid}/cgroup`, 'utf8').catch(() => '');
  return cg.includes(`/hw-${lab}/${host.name}/`) || cg.endsWith(`/hw-${lab}/${host.name}\n`);
}

export const hostRunning = (state: LabState, host: HostState): Promise<boolean> => pidBelongsTo(host.initPid, state.name, host);

export async function labHealthy(state: LabState): Promise<boolean> {
  if (!state.hosts.length) return false;
  const up = await Promise.all(state.hosts.map((h) => hostRunning(state, h)));
  return up.every(Boolean);
}
