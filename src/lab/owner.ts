// Labs that live only as long as a process (tests): a test that times out or is killed never runs its
// teardown, and its qemu/nspawn hosts are detached, so they would outlive it (a timed-out VM scenario once
// left two VMs running after the suite ended). The lab records its owner; a detached watchdog tears the
// lab down once the owner is gone, and every `lab up` sweeps labs whose owner died (if the watchdog died too).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BadInputError } from '../errors.js';
import { listLabNames, readState, type LabOwner } from './state.js';
import { teardownLab } from './teardown.js';

/**
 * A pid in the environment: every lab brought up (by this process or a child, like a `hostwire` CLI a
 * test starts) belongs to that process. The test runner's workers set it to their own pid.
 */
export const OWNER_ENV = 'HOSTWIRE_LAB_OWNER_PID';

/** A process's start time in clock ticks (pid reuse tells apart), undefined once it ended. Sync: /proc never blocks. */
export function processStartTicks(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z') return undefined; // a zombie has ended
  return Number(fields[19]); // field 22 of the whole line: starttime
}

export async function ownerOf(pid: number): Promise<LabOwner> {
  const startTicks = processStartTicks(pid);
  if (startTicks === undefined) throw new Error(`lab owner pid ${pid} is not a running process`);
  return { pid, startTicks };
}

export async function ownerAlive(owner: LabOwner): Promise<boolean> {
  return processStartTicks(owner.pid) === owner.startTicks;
}

/** The owner asked for: an explicit pid, else the environment's. */
export function requestedOwner(ownerPid: number | undefined): number | undefined {
  if (ownerPid !== undefined) return ownerPid;
  const env = process.env[OWNER_ENV];
  if (env === undefined || env === '') return undefined;
  if (!/^[1-9]\d*$/.test(env)) throw new Error(`${OWNER_ENV}=${env}: expected a process id`);
  return Number(env);
}

/** A lab that belongs to another live process: a test run must not remove it, nor `lab up` replace it. */
export class LabOwnedError extends BadInputError {}

/**
 * Refuses to `action` a lab whose recorded owner is a live process other than `self` (pids: the caller,
 * its test worker, the owner it asks for). A lab without an owner, or whose owner has ended, passes.
 */
export async function refuseForeignLab(lab: string, action: string, self: (number | undefined)[]): Promise<void> {
  const owner = (await readState(lab))?.owner;
  if (!owner || self.includes(owner.pid) || !(await ownerAlive(owner))) return;
  throw new LabOwnedError(`lab ${lab}: not ${action} - it belongs to the running process ${owner.pid} (another test run), not to this one. ` +
    `When that process ends its lab goes with it; \`hostwire lab down --name ${lab}\` from a shell removes it now`);
}

/** The pids a caller counts as itself: this process and the owner its environment names (a test worker). */
export function selfPids(): number[] {
  const env = requestedOwner(undefined);
  return env === undefined ? [process.pid] : [process.pid, env];
}

/** The watchdog's entry file: next to this one (dist/src/lab), or there from the bundle (dist/bundle/cli). */
async function watchdogScript(): Promise<string> {
  const candidates = [new URL('./watchdog-main.js', import.meta.url), new URL('../../src/lab/watchdog-main.js', import.meta.url)].map((u) => fileURLToPath(u));
  for (const c of candidates) if (await access(c).then(() => true, () => false)) return c;
  throw new Error(`lab watchdog not found (looked for ${candidates.join(', ')})`);
}

/** A detached process (its own session, outside the lab's cgroups) that removes the lab when its owner ends. */
export async function startWatchdog(lab: string, createdAt: string): Promise<number> {
  const child = spawn(process.execPath, [await watchdogScript(), lab, createdAt], { detached: true, stdio: 'ignore', cwd: '/' });
  child.unref();
  if (!child.pid) throw new Error(`lab ${lab}: could not start its watchdog`);
  return child.pid;
}

/** Removes every lab whose recorded owner has ended; returns their names. Labs without an owner stay. */
export async function sweepOrphanedLabs(except?: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await listLabNames()) {
    if (name === except) continue;
    const state = await readState(name);
    if (!state?.owner || (await ownerAlive(state.owner))) continue;
    await teardownLab(name).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}
