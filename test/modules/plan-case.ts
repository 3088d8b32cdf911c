// One recorded case as cases.test.ts runs it: the probe output as the module's probe printed it on a
// lab host, the args and host variables given, and what the pure plan must make of it.
import type { ModuleContext } from '../../src/modules/types.js';
import type { ProbeOutput } from '../../src/probe/types.js';
import { asSection } from './net-cases.js';

export interface PlanCase {
  /** Where and how it was recorded (documentation only: probes evolve, their output format stays). */
  host?: string;
  command?: string;
  /** What ansible-core returned for the same args on the same host (documentation, beside `result`). */
  recorded?: Record<string, unknown>;
  stdout: string;
  stderr?: string;
  rc: number;
  /** The module when the folder holds several (command/shell); defaults to the folder's name. */
  module?: string;
  args?: Record<string, unknown>;
  /** Host variables the probe reads (package's hostwire_pkg_mgr). */
  vars?: Record<string, unknown>;
  check?: boolean;
  /** The recording is one section's command output: it is wrapped as the probe prints that section. */
  section?: string;
  /** The expected plan: each change's summary and commands (and the file it writes; before/after, the
   * --diff text, when given). */
  plan?: { summary: string; run: string[]; write?: string; before?: string; after?: string }[];
  /** Or: the plan fails with a message matching this regular expression. */
  error?: string;
  /** Or, for a read module (stat, slurp: run() asking one probe): its result from this output. */
  result?: Record<string, unknown>;
  /** Dotted keys of `result` not compared (the note says why), only checked to be present. */
  ignore?: string[];
}

/** The probe's output: a section recording is framed as `section()` prints it (stderr folded in). */
export function probeOutput(c: PlanCase): ProbeOutput {
  if (c.section === undefined) return { stdout: c.stdout, rc: c.rc };
  return { stdout: asSection(c.section, { command: c.command ?? '', stdout: c.stdout, stderr: c.stderr, rc: c.rc }), rc: 0 };
}

const noHost = (what: string) => () => {
  throw new Error(`a recorded case has no host: the plan called ${what}`);
};

/** A pure plan gets no transport: anything it would run on a host fails the case. */
export function caseContext(c: PlanCase): ModuleContext {
  return {
    host: 'case',
    vars: c.vars ?? {},
    check: c.check ?? false,
    diff: false,
    baseDir: '/nonexistent',
    transport: new Proxy({}, { get: (_o, k) => noHost(`transport.${String(k)}`) }) as ModuleContext['transport'],
    render: noHost('render'),
    probe: noHost('probe'),
    deferred: new Map(),
  };
}

/** A read module's context: its one probe gets the recorded output, and must be what it reads ahead. */
export function readCaseContext(c: PlanCase, probed: string[]): ModuleContext {
  return {
    ...caseContext(c),
    probe: async (p) => {
      probed.push(p.command);
      return p.parse(probeOutput(c));
    },
  };
}

/** `v` without the dotted `keys` (each must be there: a renamed key is not silently skipped). */
export function withoutKeys(v: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out = structuredClone(v);
  for (const key of keys) {
    const path = key.split('.');
    let o = out as Record<string, unknown>;
    for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
    const last = path[path.length - 1]!;
    if (o === undefined || !(last in o)) throw new Error(`ignored key ${key} is not in the result`);
    delete o[last];
  }
  return out;
}
