// `lab up` is done when every host's sshd answers and systemd has finished booting.
import { labExec } from './ssh.js';
import { sleep } from './run.js';
import type { HostState, LabState } from './state.js';

export interface HostReadiness {
  host: string;
  /** `systemctl is-system-running` after boot: running, degraded, ... */
  state: string;
  failedUnits: string[];
  seconds: number;
}

const PROBE = 'systemctl is-system-running --wait; systemctl list-units --state=failed --no-legend --plain | cut -d" " -f1';

/** `failFast` is asked between attempts; a message from it ends the wait at once (e.g. a VM whose qemu died). */
export async function waitForHost(state: LabState, host: HostState, deadline: number, started = Date.now(),
  failFast?: () => Promise<string | undefined>): Promise<HostReadiness> {
  let last = '';
  while (Date.now() < deadline) {
    const fatal = await failFast?.();
    if (fatal) throw new Error(`${host.name} (${host.ip}): ${fatal}`);
    const r = await labExec(state, host, PROBE, Math.max(1000, deadline - Date.now()));
    if (r.code !== 255 && r.stdout.trim()) {
      const [sys = '', ...failed] = r.stdout.trim().split('\n');
      return { host: host.name, state: sys.trim(), failedUnits: failed.map((f) => f.trim()).filter(Boolean), seconds: (Date.now() - started) / 1000 };
    }
    last = r.code === 124 ? 'sshd answered but boot did not finish (systemctl is-system-running --wait still waiting)' : r.stderr.trim() || `exit ${r.code}`;
    await sleep(150);
  }
  throw new Error(`${host.name} (${host.ip}) not ready before the timeout; last: ${last}`);
}
