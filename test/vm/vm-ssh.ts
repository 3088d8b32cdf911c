// ssh to a VM host for VM-tier tests: generous timeouts (an emulated guest on a loaded machine answers slowly).
import { labSshArgv } from '../../src/lab/ssh.js';
import { run } from '../../src/lab/run.js';
import type { HostState, LabState } from '../../src/lab/state.js';

/** Runs `command` on the VM host; throws with its stderr when it fails. */
export async function vmSh(state: LabState, host: HostState, command: string, timeoutMs = 180_000): Promise<string> {
  const [cmd, ...args] = labSshArgv(state, host, [command], ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=30', '-o', 'ServerAliveInterval=10']);
  const r = await run(cmd!, args, { check: false, timeoutMs });
  if (r.code !== 0) throw new Error(`${host.name}: rc=${r.code}: ${command}\n${r.stderr}${r.stdout}`);
  return r.stdout;
}
