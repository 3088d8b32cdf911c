// A VM host is ready on the same terms as an nspawn host (sshd answers, systemd finished booting), only
// slower; when it is not, the error carries the serial console's tail. Then its own kernel is probed.
import { isAlive } from '../run.js';
import type { HostState, LabState } from '../state.js';
import { waitForHost, type HostReadiness } from '../wait.js';
import { probeVmCapabilities } from './capabilities.js';
import { vmExec } from './exec.js';
import { logTail, qemuLog, vmDiagnostics } from './qemu.js';

/** TCG: ~70-80 s of CPU time to `running`; 3-7.5 min measured when many labs share the two cores. */
export const VM_TIMEOUT_MS = 600_000;

export async function waitForVm(state: LabState, host: HostState, deadline: number, started = Date.now()): Promise<HostReadiness> {
  const qemuGone = async (): Promise<string | undefined> =>
    host.initPid && !(await isAlive(host.initPid)) ? `qemu (pid ${host.initPid}) exited: ${(await logTail(qemuLog(host), 5)) || 'no output'}` : undefined;
  try {
    const ready = await waitForHost(state, host, deadline, started, { failFast: qemuGone, exec: vmExec });
    host.capabilities = await probeVmCapabilities(state, host);
    return ready;
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${await vmDiagnostics(host)}`, { cause: e });
  }
}
