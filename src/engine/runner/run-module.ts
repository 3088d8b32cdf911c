// Run one module against one transport outside a playbook: the way module lab tests drive a
// module exactly as the runner does (schema, probe, plan, apply behind the check gate).
import { BadInputError } from '../../errors.js';
import { renderString, taskExpressions } from '../vars/index.js';
import { getModule, loadModules } from '../../modules/registry.js';
import { parseModuleArgs } from '../../modules/kit/ansible-coerce.js';
import type { ModuleContext, ModuleResult } from '../../modules/types.js';
import type { BecomeOptions, Transport } from '../../transports/transport.js';
import { formatArgsError } from './args-error.js';
import { newHostState, type HostState } from './host-state.js';
import { execModule } from './run-task.js';
import { readProbe } from '../../probe/read-ahead.js';

export interface RunModuleOptions {
  transport: Transport;
  check?: boolean;
  diff?: boolean;
  become?: BecomeOptions;
  vars?: Record<string, unknown>;
  /** Where files/ and templates/ are looked up (a role dir). */
  baseDir?: string;
  /** The host's run state, to keep deferred steps across calls (a fresh one when not given). */
  state?: HostState;
}

export async function runModule(name: string, args: Record<string, unknown>, o: RunModuleOptions): Promise<ModuleResult> {
  await loadModules([name]);
  const mod = getModule(name);
  if (!mod) throw new BadInputError(`couldn't resolve module/action '${name}'`);
  const parsed = parseModuleArgs(mod.args, args);
  if (!parsed.success) throw new BadInputError(formatArgsError(name, parsed.error, args));
  const h = o.state ?? newHostState(o.transport.name, {});
  h.transport ??= o.transport;
  const vars = o.vars ?? {};
  const ctx: ModuleContext = {
    host: o.transport.name,
    transport: o.transport,
    check: Boolean(o.check),
    diff: Boolean(o.diff),
    become: o.become,
    vars,
    baseDir: o.baseDir ?? process.cwd(),
    render: (tpl) => renderString(tpl, vars),
    expressions: taskExpressions(vars),
    probe: (p) => readProbe(h, p, undefined, o.become),
    deferred: h.deferred,
  };
  return execModule(mod, parsed.data, ctx, h);
}
