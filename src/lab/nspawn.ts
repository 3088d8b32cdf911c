// Booting one lab host: overlay over the shared rootfs, own cgroup folders, systemd-nspawn -b with the
// flags the lab notes found necessary on a machine whose PID 1 is not systemd.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { run, isAlive, sleep } from './run.js';
import { mountsUnder } from './fs-util.js';
import { PROPAGATE_DIR } from './names.js';
import type { HostState } from './state.js';

export async function mountOverlay(host: HostState, rootfs: string): Promise<void> {
  for (const d of ['upper', 'work', 'merged']) await mkdir(`${host.dir}/${d}`, { recursive: true });
  if ((await mountsUnder(host.merged)).includes(host.merged)) return;
  await run('mount', ['-t', 'overlay', 'overlay', '-o',
    `lowerdir=${rootfs},upperdir=${host.dir}/upper,workdir=${host.dir}/work`, host.merged]);
}

export function nspawnArgs(host: HostState): string[] {
  return [
    '-b', '-D', host.merged, '-M', host.machine,
    // No systemd on the machine to register with or to create a scope unit.
    '--register=no', '--keep-unit',
    // nspawn drops CAP_NET_ADMIN with a network namespace path; firewalld/iptables/OVS need it back.
    '--capability=CAP_NET_ADMIN,CAP_IPC_LOCK',
    '--bind=/dev/net/tun',
    `--network-namespace-path=/run/netns/${host.netns}`,
    '--resolv-conf=off', '--link-journal=no',
  ];
}

/**
 * The shell that starts nspawn and starts it again when the container asks for a reboot: systemd-nspawn
 * exits with 133 then (a systemd unit would restart it with RestartForceExitStatus=133; this machine has
 * no systemd). Any other exit ends the host. The host's netns, eth0 and its address survive the reboot,
 * as a machine's NIC does; links the host made itself stay too (a real kernel would drop them).
 */
export const SUPERVISOR_SCRIPT = [
  // Into the host's own cgroup folders first: two hosts with --keep-unit in one cgroup would collide.
  'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" || exit 1',
  'propagate=$3; shift 3',
  'while :; do "$@"; rc=$?; [ "$rc" -eq 133 ] || exit "$rc"; rm -rf -- "$propagate"; done',
].join('\n');

/** Start the container detached (it outlives the CLI); returns the supervisor's pid and the container's PID 1. */
export async function bootHost(host: HostState): Promise<{ nspawnPid: number; initPid: number }> {
  for (const c of host.cgroups) await mkdir(c, { recursive: true });
  const propagate = `${PROPAGATE_DIR}/${host.machine}`;
  await rm(propagate, { recursive: true, force: true });
  const log = openSync(`${host.dir}/console.log`, 'a');
  const child = spawn('/bin/sh', ['-c', SUPERVISOR_SCRIPT, 'sh', host.cgroups[0]!, host.cgroups[1]!, propagate, 'systemd-nspawn', ...nspawnArgs(host)], {
    detached: true,
    stdio: ['ignore', log, log],
    // /proc/sys/net writable inside the container (sysctl, firewalld).
    env: { ...process.env, SYSTEMD_NSPAWN_API_VFS_WRITABLE: 'network' },
  });
  closeSync(log);
  child.unref();
  const nspawnPid = child.pid;
  if (!nspawnPid) throw new Error(`could not start systemd-nspawn for ${host.name}`);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const initPid = await containerInit(nspawnPid);
    if (initPid) return { nspawnPid, initPid };
    if (!(await isAlive(nspawnPid))) break;
    await sleep(50);
  }
  const tail = (await readFile(`${host.dir}/console.log`, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
  throw new Error(`${host.name}: systemd-nspawn did not start the container's systemd\n${tail}`);
}

/** The container's systemd now: the supervisor's nspawn's child (it changes with each reboot). */
export async function containerInit(supervisorPid: number): Promise<number | undefined> {
  const nspawn = await childPid(supervisorPid);
  const init = nspawn && (await childPid(nspawn));
  if (!init) return undefined;
  return (await readFile(`/proc/${init}/comm`, 'utf8').catch(() => '')).trim() === 'systemd' ? init : undefined;
}

async function childPid(pid: number): Promise<number | undefined> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const first = text.trim().split(/\s+/)[0];
  return first ? Number(first) : undefined;
}
