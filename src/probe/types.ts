// The read protocol's core types: a probe is one read-only shell command plus a pure parser of
// what it prints. Facts, modules and the runner all speak it; it depends on nothing above transports.

/** Output of one probe command as split out of a batched exec. */
export interface ProbeOutput {
  stdout: string;
  /** Exit code of the probe command alone. */
  rc: number;
}

/**
 * A kind of read many probes of one batch make alike (a file's stat, a unit's `systemctl show`, an
 * `ovs-vsctl` query): the batch makes all of them with one script and splits its output back.
 */
export interface MergeKind<Item> {
  name: string;
  /** One shell script reading all items (a subshell unless marked with inlineProbe()). */
  script(items: readonly Item[]): string;
  /** Per item, what its own command prints; undefined when the output cannot be trusted. */
  split(stdout: string, items: readonly Item[]): string[] | undefined;
}

/** How a read may be merged with others of its kind; build it with mergeInfo() (merge.ts). */
export interface MergeInfo {
  kind: MergeKind<unknown>;
  /** What the read reads, in the kind's terms (a path, a unit name, OVS rows). */
  item: unknown;
  /** Read-only inline shell text whose output precedes the item's (sysctl's runtime value). */
  before?: string;
}

/** What a batch reads: a command, and when it is one of a merged kind's reads, how to merge it. */
export interface ProbeRead {
  /** Shell snippet run on the host; must not change anything. Stderr is discarded when batched. */
  command: string;
  /** Set only when `command` alone prints exactly what the kind's split gives for `merge.item`. */
  merge?: MergeInfo;
}

/** A state read: one shell command whose output a pure function turns into state. */
export interface Probe<State> extends ProbeRead {
  parse(output: ProbeOutput): State;
}
