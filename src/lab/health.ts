// Is a lab (or one host) actually alive? Pids in state.json are trusted only while they still sit in
// the host's own cgroup folder, since a crash plus pid reuse could point them at anything.
import { readFile } from 'node:fs/promises';
import { isAlive } from './run.js';
import type { HostState, LabState } from './state.js';
import { containerInit } from './nspawn.js';

export async function pidBelongsTo(pid: number | undefined, lab: string, host: HostState): Promise<boolean> {
  if (!pid || !(await isAlive(pid))) return false;
  const cg = await readFile(`/proc/${pid}/cgroup`, 'utf8').catch(() => '');
  return cg.includes(`/hw-${lab}/${host.name}/`) || cg.endsWith(`/hw-${lab}/${host.name}\n`);
}

/**
 * The host's PID 1 now: the recorded one, or after a reboot inside the container, the new one its
 * supervisor started (nspawn hosts; a VM's initPid is qemu, which reboots its guest itself).
 */
export async function currentInitPid(lab: string, host: HostState): Promise<number | undefined> {
  if (await pidBelongsTo(host.initPid, lab, host)) return host.initPid;
  if (host.kind === 'vm' || !(await pidBelongsTo(host.nspawnPid, lab, host))) return undefined;
  const init = await containerInit(host.nspawnPid!);
  return init !== undefined && (await pidBelongsTo(init, lab, host)) ? init : undefined;
}

export const hostRunning = async (state: LabState, host: HostState): Promise<boolean> => (await currentInitPid(state.name, host)) !== undefined;

export async function labHealthy(state: LabState): Promise<boolean> {
  if (!state.hosts.length) return false;
  const up = await Promise.all(state.hosts.map((h) => hostRunning(state, h)));
  return up.every(Boolean);
}
