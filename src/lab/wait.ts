// `lab up` is done when every host's sshd answers and systemd has finished booting.
import { labExec } from './ssh.js';
import { sleep, type RunResult } from './run.js';
import type { HostState, LabState } from './state.js';

export interface HostReadiness {
  host: string;
  /** `systemctl is-system-running` after boot: running, degraded, ... */
  state: string;
  failedUnits: string[];
  seconds: number;
}

const PROBE = 'systemctl is-system-running --wait; systemctl list-units --state=failed --no-legend --plain | cut -d" " -f1';

export interface WaitOptions {
  /** Asked between attempts; a message from it ends the wait at once (e.g. a VM whose qemu died). */
  failFast?: () => Promise<string | undefined>;
  /** How to run the probe (default labExec; VM hosts use a patient ssh). */
  exec?: (state: LabState, host: HostState, command: string, timeoutMs: number) => Promise<RunResult>;
}

export async function waitForHost(state: LabState, host: HostState, deadline: number, started = Date.now(), options: WaitOptions = {}): Promise<HostReadiness> {
  let last = '';
  const exec = options.exec ?? labExec;
  while (Date.now() < deadline) {
    const fatal = await options.failFast?.();
    if (fatal) throw new Error(`${host.name} (${host.ip}): ${fatal}`);
    const r = await exec(state, host, PROBE, Math.max(1000, deadline - Date.now()));
    if (r.code !== 255 && r.stdout.trim()) {
      const [sys = '', ...failed] = r.stdout.trim().split('\n');
      return { host: host.name, state: sys.trim(), failedUnits: failed.map((f) => f.trim()).filter(Boolean), seconds: (Date.now() - started) / 1000 };
    }
    last = r.code === 124 ? 'sshd answered but boot did not finish (systemctl is-system-running --wait still waiting)' : r.stderr.trim() || `exit ${r.code}`;
    await sleep(150);
  }
  throw new Error(`${host.name} (${host.ip}) not ready before the timeout; last: ${last}`);
}
