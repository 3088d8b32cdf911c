// A recorded session: for modules that talk to the host themselves over its connection (reboot,
// wait_for_connection, setup, systemd's commands) or only wait on the controller (pause). The case
// holds every exec, (re)connect and file write the module made on a lab host, in order, with what came back; the
// replay answers the same calls the same way and fails on any other call. Waits advance a fake clock
// (pause's 1 s takes no time here and still measures 1 s), so a case is as fast and exact on a loaded
// machine as on a quiet one. `recorded` is ansible-core's result for the same args on the same host.
// Recorded by hand on a lab host with test/modules/record-session.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TransportError } from '../../src/errors.js';
import { readYamlFile } from '../../src/engine/yaml-source.js';
import type { ModuleContext, ModuleResult } from '../../src/modules/types.js';
import type { Transport } from '../../src/transports/transport.js';
import { caseContext, type PlanCase } from './plan-case.js';

/** One call of the recorded session: an exec and its output (or the connection lost while it ran), a (re)connect (or its error), a file written (path, text, mode/owner/group). */
export type SessionStep = { exec: string; stdout: string; stderr?: string; rc: number } | { exec: string; lost: string } | { connect: true | string }
  | { write: string; content: string; mode?: string; owner?: string; group?: string };

export interface SessionCase extends Omit<PlanCase, 'stdout' | 'rc'> {
  session: SessionStep[];
  /** Controller files beside the playbook (include_vars), by path under it; paths in results read {playbook_dir}. */
  files?: Record<string, string>;
  /** Keys where hostwire's result differs from ansible-core's on purpose: key -> why. */
  differs?: Record<string, string>;
}

/** Replays `steps`: each call must be the next one recorded. */
function replayTransport(steps: SessionStep[]): Transport {
  const next = (what: string): SessionStep => {
    const s = steps.shift();
    if (!s) throw new Error(`the module made a call the recording does not have: ${what}`);
    return s;
  };
  const connect = async () => {
    const s = next('connect');
    if (!('connect' in s)) throw new Error(`the module (re)connected where the recording has ${JSON.stringify(s).slice(0, 200)}`);
    if (s.connect !== true) throw new TransportError(s.connect, 'case');
  };
  const t = {
    name: 'case',
    connect,
    reconnect: connect,
    close: async () => undefined,
    async exec(command: string) {
      const s = next(`exec ${command}`);
      if (!('exec' in s) || s.exec !== command) throw new Error(`the module ran:\n${command}\nthe recording has:\n${JSON.stringify(s).slice(0, 400)}`);
      if ('lost' in s) throw new TransportError(s.lost, 'case');
      return { stdout: s.stdout, stderr: s.stderr ?? '', code: s.rc };
    },
    async writeFile(file: string, content: string | Buffer, o: { mode?: string; owner?: string; group?: string } = {}) {
      const s = next(`write ${file}`);
      const made = { write: file, content: String(content), ...(o.mode ? { mode: o.mode } : {}), ...(o.owner ? { owner: o.owner } : {}), ...(o.group ? { group: o.group } : {}) };
      if (JSON.stringify(s) !== JSON.stringify(made)) throw new Error(`the module wrote:\n${JSON.stringify(made).slice(0, 400)}\nthe recording has:\n${JSON.stringify(s).slice(0, 400)}`);
    },
  };
  return t as unknown as Transport;
}

/** Runs the module against the recording with a fake clock; returns its result and the calls left over. */
export async function runSession(run: (ctx: ModuleContext) => Promise<ModuleResult>, c: SessionCase): Promise<{ result: ModuleResult; left: SessionStep[] }> {
  const steps = structuredClone(c.session);
  const realNow = Date.now;
  let now = realNow();
  const transport = replayTransport(steps);
  const ctx: ModuleContext = {
    ...caseContext(c as unknown as PlanCase),
    transport,
    wait: async (ms) => {
      now += ms;
      return true;
    },
    // A probe is its command run on its own (as the recorder read it).
    probe: async (p) => {
      const r = await transport.exec(p.command);
      return p.parse({ stdout: r.stdout, rc: r.code });
    },
  };
  const dir = c.files ? mkdtempSync(path.join(tmpdir(), 'hw-case-')) : undefined;
  for (const [f, text] of Object.entries(c.files ?? {})) {
    mkdirSync(path.dirname(path.join(dir!, f)), { recursive: true });
    writeFileSync(path.join(dir!, f), text);
  }
  if (dir) Object.assign(ctx, { baseDir: dir, vars: { ...ctx.vars, playbook_dir: dir }, readVarsFile: readYamlFile });
  Date.now = () => now;
  try {
    const result = await run(ctx);
    return { result: dir ? (JSON.parse(JSON.stringify(result).split(dir).join('{playbook_dir}')) as ModuleResult) : result, left: steps };
  } finally {
    Date.now = realNow;
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** `v` without the top-level `keys` that it has. */
const minus = (v: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(v).filter(([k]) => !keys.includes(k)));

// What ansible-playbook's json callback adds to every result, not the module's.
const CALLBACK_KEYS = ['invocation', '_ansible_no_log', 'action', '_ansible_verbose_always', 'deprecations', 'warnings', 'skip_reason'];

/**
 * What compares with Ansible's result: Ansible's callbacks drop _ansible_* keys (gather_facts'
 * _ansible_facts_gathered), and hostwire_* facts are hostwire's own (docs/facts.md).
 */
function shown(v: Record<string, unknown>): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('_ansible') && !k.startsWith('hostwire_')));
  if (out.ansible_facts && typeof out.ansible_facts === 'object') out.ansible_facts = shown(out.ansible_facts as Record<string, unknown>);
  return out;
}

/** hostwire's expected result against ansible-core's recording: the same keys and values but the ignored and named differences. */
export function ansibleDifferences(c: SessionCase): { hostwire: Record<string, unknown>; ansible: Record<string, unknown> } {
  const skip = [...(c.ignore ?? []), ...Object.keys(c.differs ?? {})];
  // ansible-core's task executor adds failed: false to a result the module left without one.
  const executor = c.recorded?.failed === false && !('failed' in (c.result ?? {})) ? ['failed'] : [];
  return { hostwire: minus(shown(c.result ?? {}), [...skip, 'warnings']), ansible: minus(c.recorded ?? {}, [...skip, ...executor, ...CALLBACK_KEYS]) };
}
