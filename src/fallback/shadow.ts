// A module in library/ named like a hostwire-native one replaces it, as in ansible-core 2.14: a short
// or ansible.legacy. task name is looked up by the plugin loader's legacy search (plugins/loader.py
// _find_plugin_legacy), which tries the playbook's and loaded roles' library/ and the configured library
// paths before ansible-core's own modules; ansible.builtin.X searches ansible-core only. The action is
// chosen first (executor/task_executor.py _get_action_handler_with_module_context): a local
// action_plugins/X.py wins, then a builtin action plugin of the name, which may run no module of its
// name (debug), another one (shell runs ansible.legacy.command) or its own after controller-side work
// (copy uploads first). The tables below are 2.14's plugins/action/*.py. Pure: the file checks are passed in.

export interface Shadow {
  /** The library/ module to run in place of the native one (shell: command). */
  module: string;
  /** Arguments the builtin action adds (shell: _uses_shell). */
  args?: Record<string, unknown>;
  /** Why the fallback cannot run it as ansible-core does: the task fails with this when it runs. */
  refusal?: string;
}

/** Builtin actions that never run a module of their own name: a library/ file of that name is not used. */
const ACTION_ONLY = new Set([
  'add_host', 'assert', 'debug', 'fail', 'fetch', 'gather_facts', 'group_by', 'include_vars', 'package', 'pause', 'raw',
  'reboot', 'script', 'service', 'set_fact', 'set_stats', 'template', 'validate_argument_spec', 'wait_for_connection',
]);

/** Builtin actions that run another module: shell is the command module with _uses_shell. */
const RUNS_INSTEAD: Record<string, { module: string; args: Record<string, unknown> }> = {
  shell: { module: 'command', args: { _uses_shell: true } },
};

/** Builtin actions that run ansible.legacy.<their name> only after work on the controller. */
const AFTER_CONTROLLER_WORK: Record<string, string> = {
  copy: 'uploads src or content to the host before it',
  unarchive: 'uploads the archive (unless remote_src) and checks dest before it',
  uri: 'uploads src before it',
  async_status: 'reads the job file hostwire\'s own async keeps differently',
  yum: 'picks yum or dnf from the host\'s pkg_mgr before it',
};

/** Modules a builtin action runs besides its own: a library/ file of these names changes what it does. */
const ALSO_RUNS: Record<string, string[]> = {
  copy: ['stat', 'file'],
  template: ['stat', 'file', 'copy'],
  fetch: ['stat', 'slurp'],
  unarchive: ['stat'],
  service: ['setup', 'systemd', 'service', 'sysvinit', 'openwrt_init'],
  package: ['setup', 'apt', 'dnf', 'yum'],
  yum: ['setup', 'dnf'],
  wait_for_connection: ['ping'],
  gather_facts: ['setup'],
};

const legacyShort = (written: string): string | undefined => {
  const parts = written.split('.');
  if (parts.length === 1) return written;
  return parts.length === 3 && parts[0] === 'ansible' && parts[1] === 'legacy' ? parts[2] : undefined;
};

/**
 * What a native task name runs when library/ or action_plugins/ hold a file of a name its action uses:
 * `shadow` when the task runs a library/ module (or a local action plugin) instead, `warnings` for the
 * modules ansible-core's action would also run from library/ that hostwire's native action does not.
 */
export function shadowOf(written: string, libraryFile: (name: string) => string | undefined, localAction: (name: string) => string | undefined): { shadow?: Shadow; warnings: string[] } {
  const short = legacyShort(written);
  if (short === undefined) return { warnings: [] };
  if (localAction(short)) return { shadow: { module: short }, warnings: [] };
  const instead = RUNS_INSTEAD[short];
  const target = instead?.module ?? (ACTION_ONLY.has(short) ? undefined : short);
  const file = target === undefined ? undefined : libraryFile(target);
  const warnings = (ALSO_RUNS[short] ?? []).flatMap((m) => {
    const f = libraryFile(m);
    return f ? [`${f} replaces ansible.legacy.${m}, which ansible-core's ${short} action also runs; hostwire's native ${short} does not run it`] : [];
  });
  if (!file || target === undefined) return { warnings };
  const why = AFTER_CONTROLLER_WORK[short];
  const refusal = why && `module '${written}' is ${file} here (it shadows the builtin ${short}), which ansible-core runs from its ${short} action, and that action ${why}; hostwire's fallback runs host-side modules only`;
  return { shadow: { module: target, ...(instead ? { args: instead.args } : {}), ...(refusal ? { refusal } : {}) }, warnings };
}
