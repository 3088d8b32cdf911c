// HOSTWIRE_TRACE=1: connects, execs and the run lock per host on stderr, each with the time since
// the process started and its duration (a profiling aid; commands only by their start, secrets masked).
export const TRACE = process.env.HOSTWIRE_TRACE === '1';

export function trace(host: string, what: string, since: number): void {
  if (!TRACE) return;
  const now = performance.now();
  process.stderr.write(`trace +${now.toFixed(0)} ms ${host} ${what} ${(now - since).toFixed(0)} ms\n`);
}
