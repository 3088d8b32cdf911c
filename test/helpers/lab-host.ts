// Shared by lab tests of modules: one lab host reached through the real SSH transport, and the
// converge/no-op/drift/check/fix cycle every state module must pass on it.
import type { ExecutionContext } from 'ava';
import { labDown, labReboot, labUp, type LabState, type LabUpOptions } from '../../src/lab/index.js';
import { createTransport } from '../../src/transports/index.js';
import type { Transport } from '../../src/transports/transport.js';
import { runModule } from '../../src/engine/runner/run-module.js';
import type { ModuleResult } from '../../src/modules/types.js';

export interface LabHost {
  /** The lab's record (inventory, key files, hosts). */
  state: LabState;
  transport: Transport;
  /** Runs a shell command on the host; throws with rc and stderr when it fails. */
  sh(cmd: string): Promise<string>;
  close(): Promise<void>;
}

/** Power-cycles the lab host (`lab reboot`, its disk kept) and reconnects; the seconds until SSH answered again. */
export async function rebootLabHost(host: LabHost, timeoutMs = 120_000): Promise<number> {
  await host.transport.close();
  const started = Date.now();
  await labReboot(host.state.hosts[0]!.name, { name: host.state.name, timeoutMs });
  await host.transport.connect();
  return (Date.now() - started) / 1000;
}

/** Brings up a fresh lab (removing a stale one of the same name) and connects to its first host. */
export async function labHost(lab: string, options: Omit<LabUpOptions, 'name'> = {}): Promise<LabHost> {
  await labDown(lab).catch(() => undefined);
  const up = await labUp({ name: lab, hosts: 1, ...options });
  const h = up.state.hosts[0];
  const transport = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: up.state.keyFile, knownHostsFile: up.state.knownHostsFile, netns: up.state.netns });
  await transport.connect();
  return {
    state: up.state,
    transport,
    sh: async (cmd) => {
      const r = await transport.exec(cmd);
      if (r.code !== 0) throw new Error(`rc=${r.code}: ${cmd}\n${r.stderr}`);
      return r.stdout;
    },
    close: async () => {
      await transport.close().catch(() => undefined);
      await labDown(lab).catch(() => undefined);
    },
  };
}

export type ModuleRunner = (name: string, args: Record<string, unknown>, o?: { check?: boolean; diff?: boolean }) => Promise<ModuleResult>;

/** A module runner bound to one host (and optionally a role dir and vars). */
export const moduleRunner = (host: LabHost, extra: { baseDir?: string; vars?: Record<string, unknown> } = {}): ModuleRunner =>
  (name, args, o = {}) => runModule(name, args, { transport: host.transport, ...extra, ...o });

/** converge, again (ok), drift, --check --diff (changed, host untouched), fix, again (ok). */
export async function convergeCycle(t: ExecutionContext, host: LabHost, run: ModuleRunner, name: string, args: Record<string, unknown>, drift: string, read: string): Promise<ModuleResult> {
  t.true((await run(name, args)).changed, `${name}: first converge changes`);
  t.false((await run(name, args)).changed, `${name}: second converge is a no-op`);
  const good = await host.sh(read);
  await host.sh(drift);
  const drifted = await host.sh(read);
  t.not(drifted, good, `${name}: drift happened`);
  const checked = await run(name, args, { check: true, diff: true });
  t.true(checked.changed, `${name}: check mode reports the drift`);
  t.true((checked.diff ?? []).some((d) => d.before !== d.after), `${name}: with a diff`);
  t.is(await host.sh(read), drifted, `${name}: check mode left the host alone`);
  t.true((await run(name, args)).changed, `${name}: a normal run fixes it`);
  t.is(await host.sh(read), good, `${name}: back to the converged state`);
  t.false((await run(name, args)).changed, `${name}: and stays converged`);
  return checked;
}
