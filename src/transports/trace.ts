// HOSTWIRE_TRACE=1: connects, execs and the run lock per host on stderr, each with the time since
// the process started, its duration and the CPU the controller process has used so far (a profiling
// aid: on a loaded machine wall time follows CPU; commands only by their start, secrets masked).
export const TRACE = process.env.HOSTWIRE_TRACE === '1';

/** Hides known secrets in text. The transports sit below the vault, so the caller passes it in. */
export type Masker = (text: string) => string;

let traceMask: Masker | undefined;

/** Lets trace lines show the start of each command, masked by `mask` (the CLI passes the vault's). */
export function setTraceMask(mask: Masker): void {
  traceMask = mask;
}

/** The start of a command for a trace line; without a masker only its length (no secret can show). */
export function traceCommand(command: string): string {
  if (!traceMask) return `(${command.length} characters)`;
  // Masked before cutting: a secret cut in two at the edge would no longer match.
  return `${traceMask(command).slice(0, 24).replace(/\s+/g, ' ')}...`;
}

export function trace(host: string, what: string, since: number): void {
  if (!TRACE) return;
  const now = performance.now();
  const cpu = process.cpuUsage();
  process.stderr.write(`trace +${now.toFixed(0)} ms ${host} ${what} ${(now - since).toFixed(0)} ms (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)\n`);
}
