// Removing a lab, idempotent and tolerant of partial state: whatever state.json lists, plus a sweep
// by name (namespaces `hw-<lab>[-n]`, cgroup folders `hw-<lab>`, mounts under the lab's dir).
import { stopKeeperOf } from '../transports/keeper/paths.js';
import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { isAlive, run, sleep } from './run.js';
import { currentInitPid, pidBelongsTo } from './health.js';
import { mountsUnder, unmountUnder } from './fs-util.js';
import { deleteNetns, netnsList } from './network.js';
import { isLabNetns, labCgroupDirs, labDir, parseHostName, PROPAGATE_DIR } from './names.js';
import { readState, type HostState } from './state.js';

export interface TeardownReport {
  killed: number;
  netns: string[];
  unmounted: number;
}

/** Every pid in a cgroup folder and its children (only processes the lab put there). */
export async function cgroupPids(dir: string): Promise<number[]> {
  const pids: number[] = [];
  const walk = async (d: string): Promise<void> => {
    const text = await readFile(`${d}/cgroup.procs`, 'utf8').catch(() => '');
    pids.push(...text.split('\n').filter(Boolean).map(Number));
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) await walk(`${d}/${e.name}`);
  };
  await walk(dir);
  return [...new Set(pids)];
}

const kill = (pid: number): void => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
};

/** Power off one host hard: SIGKILL its PID 1 (ends its whole PID namespace), then anything left. */
export async function killHost(lab: string, host: HostState, timeoutMs = 15_000): Promise<number> {
  let killed = 0;
  let graceUntil = 0;
  const init = await currentInitPid(lab, host);
  // The supervisor first, so that it cannot start the container again once its PID 1 is gone.
  if (host.kind !== 'vm' && host.nspawnPid && (await pidBelongsTo(host.nspawnPid, lab, host))) kill(host.nspawnPid);
  if (init !== undefined) {
    kill(init);
    killed++;
    graceUntil = Date.now() + 2000;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const left: number[] = [];
    for (const c of host.cgroups) left.push(...(await cgroupPids(c)));
    if (host.nspawnPid && (await pidBelongsTo(host.nspawnPid, lab, host))) left.push(host.nspawnPid);
    const alive = [];
    for (const p of new Set(left)) if (await isAlive(p)) alive.push(p);
    if (!alive.length) return killed;
    // Give PID 1's death a moment to take its namespace and nspawn with it before killing the rest.
    if (Date.now() > graceUntil) {
      alive.forEach(kill);
      killed += alive.length;
    }
    await sleep(100);
  }
  throw new Error(`${host.name}: processes still alive after ${timeoutMs / 1000} s`);
}

export async function removeCgroupTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return;
  for (const e of entries) if (e.isDirectory()) await removeCgroupTree(`${dir}/${e.name}`);
  for (let i = 0; i < 50; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      await sleep(100); // EBUSY until the last exiting task is reaped
    }
  }
  throw new Error(`cannot remove cgroup folder ${dir}`);
}

/** Hosts known from state.json plus host cgroup folders found on disk (a crash may have lost state). */
async function knownHosts(lab: string): Promise<HostState[]> {
  const state = await readState(lab);
  const hosts = new Map((state?.hosts ?? []).map((h) => [h.name, h]));
  for (const root of labCgroupDirs(lab)) {
    for (const name of await readdir(root).catch(() => [] as string[])) {
      if (hosts.has(name) || parseHostName(name)?.lab !== lab) continue;
      hosts.set(name, { name, index: parseHostName(name)!.index, ip: '', netns: '', machine: name, dir: '', merged: '',
        cgroups: labCgroupDirs(lab).map((r) => `${r}/${name}`), veth: '' });
    }
  }
  return [...hosts.values()];
}

export async function teardownLab(lab: string): Promise<TeardownReport> {
  const hosts = await knownHosts(lab);
  const killed = (await Promise.all(hosts.map((h) => killHost(lab, h)))).reduce((a, b) => a + b, 0);
  const dir = labDir(lab);
  // A VM's tap lives in the lab namespace and goes with it; removed first all the same, by name.
  for (const h of hosts) {
    if (h.kind !== 'vm') continue;
    for (const tap of [h.veth, ...(h.vm?.nics ?? []).map((n) => n.tap)]) if (tap) await run('ip', ['-n', h.netns, 'link', 'del', tap], { check: false });
  }
  const unmounted = (await mountsUnder(dir)).length;
  await unmountUnder(dir);
  const netns = (await netnsList()).filter((n) => isLabNetns(lab, n));
  // A connection keeper a run started inside the lab's namespace would keep the namespace alive.
  for (const n of netns) stopKeeperOf(`/run/netns/${n}`);
  for (const n of netns) await deleteNetns(n);
  for (const c of labCgroupDirs(lab)) await removeCgroupTree(c);
  for (const m of await readdir(PROPAGATE_DIR).catch(() => [] as string[])) {
    if (parseHostName(m)?.lab === lab) await rm(`${PROPAGATE_DIR}/${m}`, { recursive: true, force: true });
  }
  // Never recurse into a still-mounted overlay.
  const still = await mountsUnder(dir);
  if (still.length) throw new Error(`lab ${lab}: still mounted, not removing ${dir}: ${still.join(', ')}`);
  await rm(dir, { recursive: true, force: true });
  return { killed, netns, unmounted };
}
