// A module hostwire has no native version of, run through the fallback: the Ansible module's own
// code on the host, in the host's per-run worker, with Ansible's argument protocol (the module's
// arguments plus the _ansible_* settings ActionBase._update_module_args adds) and result protocol.
// Check mode is the module's own: one without supports_check_mode answers "skipped" itself.
import { z } from 'zod';
import type { Module, ModuleContext, ModuleResult } from '../modules/types.js';
import { HostwireError } from '../errors.js';
import type { FoundModule } from './find-module.js';
import type { Payload } from './payload-types.js';
import { moduleResult } from './result.js';
import { workerFor } from './worker.js';

export interface FallbackSession {
  /** ansible-core's version (the module sees it as _ansible_version). */
  coreVersion: string;
  /** The run's payload: every fallback module it resolved, with their module_utils. */
  payload(): Promise<Payload>;
}

/** The host's Python: ansible_python_interpreter, else python3 ('auto*' values mean discovery: python3). */
export function interpreterFor(vars: Record<string, unknown>, host: string): string {
  const v = vars.ansible_python_interpreter;
  if (v === undefined || v === null || (typeof v === 'string' && /^auto(_legacy|_silent|_legacy_silent)?$/.test(v))) return 'python3';
  if (typeof v !== 'string' || !/^[A-Za-z0-9_./+-]+$/.test(v)) {
    throw new HostwireError('bad-input', `ansible_python_interpreter of ${host} is ${JSON.stringify(v)}; expected a path or command name such as /usr/bin/python3`, { host });
  }
  return v;
}

/** SELinux special filesystems and other fixed settings, at ansible-core 2.14's defaults. */
function ansibleSettings(m: FoundModule, ctx: ModuleContext, coreVersion: string): Record<string, unknown> {
  const facility = ctx.vars.ansible_syslog_facility;
  return {
    _ansible_check_mode: ctx.check,
    _ansible_no_log: Boolean(ctx.noLog),
    _ansible_debug: false,
    _ansible_diff: ctx.diff,
    _ansible_verbosity: ctx.verbosity ?? 0,
    _ansible_version: coreVersion,
    _ansible_module_name: m.written,
    _ansible_syslog_facility: typeof facility === 'string' ? facility : 'LOG_USER',
    _ansible_selinux_special_fs: ['fuse', 'nfs', 'vboxsf', 'ramfs', '9p', 'vfat'],
    _ansible_string_conversion_action: 'warn',
    _ansible_socket: null,
    _ansible_shell_executable: '/bin/sh',
    _ansible_keep_remote_files: false,
    _ansible_tmpdir: null,
    _ansible_remote_tmp: '~/.ansible/tmp',
  };
}

/** JSON-safe copy of rendered arguments (an !unsafe value becomes its text, as Ansible sends it). */
const plainArgs = (args: Record<string, unknown>): Record<string, unknown> => JSON.parse(JSON.stringify(args)) as Record<string, unknown>;

export function fallbackModule(key: string, m: FoundModule, session: FallbackSession): Module<Record<string, unknown>> {
  return {
    name: key,
    doc: {
      description:
        `Ansible's module ${m.resolved} (${m.path}), which hostwire has no native version of: run with the host's Python ` +
        "through ansible-core's argument/result protocol, one worker per host. Its arguments, check and diff support are " +
        'its own: see ansible-doc.',
      args: {},
      example: `- ${key}: {}`,
      check: 'partial',
      diff: 'partial',
    },
    // The module validates its own arguments on the host (AnsibleModule's argument_spec).
    args: z.record(z.string(), z.unknown()),
    environment: 'applies',
    // The payload is built (or read from the controller's cache: ~15 ms of synchronous reading and
    // hashing) while the connections come up - after their sockets are opened, so sshd works meanwhile.
    prepare() {
      setImmediate(() => void session.payload().catch(() => undefined));
    },
    // The worker comes up (and the payload goes up, if the host lacks it) while the run lock is taken.
    warmUp({ transport, vars }) {
      const python = interpreterFor(vars, transport.name);
      void session.payload().then((p) => workerFor(transport, python, undefined, p.hash).then((w) => w.ensurePayload(p))).catch(() => undefined);
    },
    async run(args, ctx): Promise<ModuleResult> {
      const payload = await session.payload();
      const worker = await workerFor(ctx.transport, interpreterFor(ctx.vars, ctx.host), ctx.become, payload.hash);
      await worker.ensurePayload(payload);
      const moduleArgs = { ...plainArgs(args), ...ansibleSettings(m, ctx, session.coreVersion) };
      const out = await worker.call(payload.hash, m.remoteFqn, moduleArgs, ctx.environment ?? {});
      return moduleResult(out);
    },
  };
}

/** A module found but not runnable through the fallback: its task fails with `message` when it runs. */
export function refusedModule(message: string): (key: string) => Module<Record<string, unknown>> {
  return (key) => ({
    name: key,
    doc: { description: `Not runnable by hostwire: ${message}.`, args: {}, example: `- ${key}: {}`, check: 'none', diff: 'none' },
    args: z.record(z.string(), z.unknown()),
    environment: 'irrelevant',
    run: () => Promise.reject(new HostwireError('bad-input', message)),
  });
}
