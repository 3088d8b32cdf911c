// Pings from the lab's own namespace: this machine has no ping of its own, so the rootfs's (iputils) runs
// chrooted there, read-only. Lab traffic only: the namespace is the lab's.
import { run, type RunResult } from '../../src/lab/run.js';
import type { LabState } from '../../src/lab/state.js';

/** `ping ARGS... -- TARGET` from the lab namespace; never throws (the caller reads exit code and output). */
export function labPing(state: LabState, target: string, args: string[] = ['-c2', '-W5'], timeoutMs = 120_000): Promise<RunResult> {
  return run('ip', ['netns', 'exec', state.netns, 'chroot', state.rootfs, 'ping', '-n', ...args, '--', target], { check: false, timeoutMs });
}

/** Counts of a finished ping run: sent, received, and the gap (lost x interval) in seconds. */
export function pingLoss(stdout: string, intervalS: number): { sent: number; received: number; gapS: number } | undefined {
  const m = /(\d+) packets transmitted, (\d+) received/.exec(stdout);
  if (!m) return undefined;
  const sent = Number(m[1]);
  const received = Number(m[2]);
  return { sent, received, gapS: (sent - received) * intervalS };
}
