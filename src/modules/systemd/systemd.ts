// systemd / systemd_service: ansible.builtin.systemd (ansible-core 2.14) natively - its arguments,
// aliases, required_one_of/required_by, its judgement of each unit (plan.ts) and its registered
// result. The unit's read is the service modules' batched `systemctl show` (probe/kinds/services.ts).
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool, withAliases } from '../kit/ansible-args.js';
import { DAEMON_RELOAD, daemonReloadDone, daemonReloadPending } from '../kit/daemon-reload.js';
import { UNIT_PROPS, unitShowRead } from '../../probe/kinds/services.js';
import { parseShow } from '../kit/unit-status.js';
import { planSystemd, systemctl, type SystemdArgs } from './plan.js';
import { systemdDoc } from './doc.js';

const REQUIRES_NAME = ['state', 'enabled', 'masked'] as const;

const systemdArgs = withAliases(
  z
    .object({
      name: z.string().min(1).optional(),
      state: z.enum(['reloaded', 'restarted', 'started', 'stopped']).optional(),
      enabled: ansibleBool.optional(),
      force: ansibleBool.optional(),
      masked: ansibleBool.optional(),
      daemon_reload: ansibleBool.default(false),
      daemon_reexec: ansibleBool.default(false),
      scope: z.enum(['system', 'user', 'global']).default('system'),
      no_block: ansibleBool.default(false),
    })
    .strict()
    .superRefine((a, ctx) => {
      const issue = (message: string, path: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: [path] });
      if (a.state === undefined && a.enabled === undefined && a.masked === undefined && !a.daemon_reload && !a.daemon_reexec) {
        issue('one of the following is required: state, enabled, masked, daemon_reload, daemon_reexec', 'state');
      }
      for (const k of REQUIRES_NAME) if (a[k] !== undefined && a.name === undefined) issue(`missing parameter(s) required by '${k}': name`, k);
      if (a.name !== undefined) {
        const glob = ['*', '?', '['].find((g) => a.name!.includes(g));
        if (glob) issue(`This module does not currently support using glob patterns, found '${glob}' in service name: ${a.name}`, 'name');
        else if (!/^[A-Za-z0-9:_.\\@-]+$/.test(a.name)) issue('expected a unit name like ssh or ovs-vswitchd.service', 'name');
      }
    }),
  { name: ['service', 'unit'], daemon_reload: ['daemon-reload'], daemon_reexec: ['daemon-reexec'] },
);

/**
 * The unit's read: the system manager's is merged with the batch's other units; a user manager's stands alone,
 * as does the global scope's (systemctl --global show reads the unit files; its ActiveState is always inactive).
 */
const unitRead = (a: SystemdArgs) =>
  a.scope !== 'system'
    ? { command: `if command -v systemctl >/dev/null 2>&1; then ${systemctl({ scope: a.scope, no_block: false, force: false }, `show -p ${UNIT_PROPS}`, a.name!)}; else echo systemctl:missing; fi`, parse: parseShow }
    : { ...unitShowRead(a.name!), parse: parseShow };

/** The failure systemd.py reports for each kind of command. */
function failure(cmd: string, r: { code: number; stdout: string; stderr: string }, unit: string | undefined): string {
  const verb = /systemctl(?: --\S+)* (\S+)/.exec(cmd)?.[1] ?? cmd;
  if (verb === 'daemon-reload' || verb === 'daemon-reexec') return `failure ${r.code} during ${verb}: ${r.stderr}`;
  if (verb === 'enable' || verb === 'disable') return `Unable to ${verb} service ${unit}: ${r.stdout}${r.stderr}`;
  return `Unable to ${verb} service ${unit}: ${r.stderr}`;
}

async function runSystemd(a: SystemdArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const status = a.name === undefined ? undefined : await ctx.probe(unitRead(a));
  let plan;
  try {
    plan = planSystemd(status, a, ctx.host, daemonReloadPending(ctx));
  } catch (e) {
    // systemd.py's fail_json(msg=...): the message alone, no name or status.
    if (e instanceof HostwireError) return { changed: false, failed: true, msg: e.message };
    throw e;
  }
  if (ctx.check) return plan.result;
  for (const cmd of plan.commands) {
    const r = await ctx.transport.exec(cmd, { become: ctx.become });
    if (r.code !== 0 && cmd === plan.mask?.command) {
      // systemd.py: "some versions of systemd CAN mask/unmask non existing services, we only fail on missing".
      if (plan.mask.found) continue;
      return { changed: false, failed: true, msg: `Could not find the requested service ${a.name}: host` };
    }
    if (r.code !== 0) return { changed: false, failed: true, msg: failure(cmd, r, a.name) };
    if (cmd === DAEMON_RELOAD) daemonReloadDone(ctx);
  }
  return plan.result;
}

function named(name: string): Module<SystemdArgs> {
  return {
    name,
    doc: { ...systemdDoc, example: systemdDoc.example.replace(/^- systemd:/, `- ${name}:`) },
    args: systemdArgs,
    run: runSystemd,
    readsAhead: (a) => (a.name === undefined ? [] : [unitRead(a)]),
  };
}

export const systemdModule = named('systemd');
/** ansible-core 2.15's name of the same module (systemd became its alias); 2.14 content uses systemd. */
export const systemdServiceModule = named('systemd_service');
