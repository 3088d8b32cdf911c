// ssh to a VM host with patience: under emulation on busy cores sshd may take many seconds to send its
// banner, and an attempt abandoned after 2 s (labExec) only adds load to the guest.
import { labSshArgv } from '../ssh.js';
import { run, type RunResult } from '../run.js';
import type { HostState, LabState } from '../state.js';

export async function vmExec(state: LabState, host: HostState, command: string, timeoutMs = 120_000): Promise<RunResult> {
  const [cmd, ...args] = labSshArgv(state, host, [command], ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=30',
    '-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=4']);
  return run(cmd!, args, { check: false, timeoutMs });
}
