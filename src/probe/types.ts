// The read protocol's core types: a probe is one read-only shell command plus a pure parser of
// what it prints. Facts, modules and the runner all speak it; it depends on nothing above transports.

/** Output of one probe command as split out of a batched exec. */
export interface ProbeOutput {
  stdout: string;
  /** Exit code of the probe command alone. */
  rc: number;
}

/** A state read: one shell command whose output a pure function turns into state. */
export interface Probe<State> {
  /** Shell snippet run on the host; must not change anything. Stderr is discarded when batched. */
  command: string;
  parse(output: ProbeOutput): State;
}
