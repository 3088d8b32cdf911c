// Starting a VM host: qemu (TCG: nested KVM guests hang on this machine kind) inside the lab namespace,
// its NIC a tap on the lab bridge, direct kernel boot, serial console to a log file in the host's dir.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { isAlive, sleep } from '../run.js';
import type { HostState, LabState, VmHostState } from '../state.js';
import { nicArgs } from './nics.js';
import { SELINUX_CMDLINE } from './selinux.js';
import { qmpSocket } from './qmp.js';

export const QEMU = 'qemu-system-x86_64';

export const consoleLog = (host: HostState): string => `${host.dir}/console.log`;
export const qemuLog = (host: HostState): string => `${host.dir}/qemu.log`;

export function kernelCmdline(host: HostState): string {
  // eth0 as on nspawn hosts; the hostname from the first instant (before the seed disk is read);
  // no speculation mitigations (retpolines cost real time under emulation, and a lab VM guards nothing).
  return ['root=/dev/vda', 'rw', 'console=ttyS0', 'net.ifnames=0', `systemd.hostname=${host.name}`, 'mitigations=off', 'quiet', 'panic=5',
    ...(host.vm?.selinux ? SELINUX_CMDLINE : []), ...(host.vm?.kernelArgs ?? [])].join(' ');
}

export function qemuArgs(host: HostState, vm: VmHostState): string[] {
  return [
    '-name', host.name, '-machine', 'q35',
    // A smaller translation cache than the 1 GiB default keeps the process near the guest's own memory.
    '-accel', 'tcg,thread=multi,tb-size=256', '-cpu', 'max', '-smp', String(vm.cpus), '-m', String(vm.memoryMb),
    '-nodefaults', '-no-user-config', '-display', 'none',
    '-chardev', `file,id=con0,path=${consoleLog(host)},append=on`, '-serial', 'chardev:con0',
    '-kernel', vm.kernel, '-initrd', vm.initrd, '-append', kernelCmdline(host),
    '-drive', `file=${vm.disk},format=qcow2,if=virtio`,
    '-drive', `file=${vm.seed},format=raw,if=virtio,readonly=on`,
    // vnet_hdr=off: the guest gets no checksum/GSO offload, so it never sends partial-checksum or 64 KB
    // frames onto the bridge (OVS netdev ports on nspawn hosts drop those; see the lab notes).
    '-netdev', `tap,id=net0,ifname=${host.veth},script=no,downscript=no,vnet_hdr=off`,
    // romfile=: no iPXE option ROM (not installed with --no-install-recommends, and not needed).
    '-device', `virtio-net-pci,netdev=net0,mac=${vm.mac},romfile=`,
    ...nicArgs(vm.nics ?? []),
    // Cutting a NIC's cable (setVmLink) for failover tests.
    '-qmp', `unix:${qmpSocket(host)},server=on,wait=off`,
    '-device', 'virtio-rng-pci',
  ];
}

/** Start qemu detached (it outlives the CLI) in the host's cgroup folders and the lab namespace; returns its pid. */
export async function startVm(state: LabState, host: HostState): Promise<{ initPid: number }> {
  const vm = host.vm;
  if (!vm) throw new Error(`${host.name} is not a VM host`);
  for (const c of host.cgroups) await mkdir(c, { recursive: true });
  const log = openSync(qemuLog(host), 'a');
  // The shell joins the host's cgroup folders (how health and teardown find the lab's processes), then
  // becomes `ip netns exec`, which becomes qemu: one pid throughout.
  const script = 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" && shift 2 && exec "$@"';
  const child = spawn('/bin/sh', ['-c', script, 'sh', host.cgroups[0]!, host.cgroups[1]!, 'ip', 'netns', 'exec', state.netns, QEMU, ...qemuArgs(host, vm)], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  child.unref();
  const pid = child.pid;
  if (!pid) throw new Error(`could not start ${QEMU} for ${host.name}`);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    // Settled once the process is qemu and still alive a moment later (bad arguments exit at once).
    if ((await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).startsWith('qemu-system')) {
      await sleep(300);
      if (await isAlive(pid)) return { initPid: pid };
    }
    if (!(await isAlive(pid))) break;
    await sleep(50);
  }
  throw new Error(`${host.name}: ${QEMU} did not start\n${await logTail(qemuLog(host))}`);
}

export async function logTail(file: string, lines = 25): Promise<string> {
  // Terminal escapes and carriage returns from the guest's console would garble an error message.
  const text = (await readFile(file, 'utf8').catch(() => '')).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
  return text.split('\n').filter((l) => l.trim()).slice(-lines).join('\n');
}

/** Why a VM is not ready: the serial console's last lines. */
export async function vmDiagnostics(host: HostState): Promise<string> {
  return `serial console (${consoleLog(host)}), last lines:\n${(await logTail(consoleLog(host))) || '(empty)'}`;
}
