// The shape of a state module (see ../shared/design.md): validate args, declare a probe
// (a command + a pure parser, batched by the runner), plan changes from the probed state
// purely, and apply them only outside check mode.
import type { ZodType } from 'zod';
import type { Transport, BecomeOptions } from '../transports/transport.js';
import type { Probe, ProbeRead } from '../probe/types.js';

/** One planned change; `run` holds the shell commands that make it, executed in order. */
export interface Change {
  summary: string;
  before?: string;
  after?: string;
  /** Shell commands run on the host, joined with && into one exec unless the module applies itself. */
  run: string[];
  /** Content to stream atomically to a file instead of (or before) running commands. */
  write?: { path: string; content: string | Buffer; mode?: string; owner?: string; group?: string; validate?: string };
  /** The change's commands print one value, registered under this name in the result (copy's backup_file). */
  reports?: string;
  /** Why this change may cut the host off (uplink move, firewall of the session, route removal): asked on a TTY first. */
  disruptive?: string;
}

/** What a module runs in the background, and the fixed part of its result (cmd, changed...). */
export interface BackgroundCommand {
  script: string;
  stdin?: string;
  result: ModuleResult;
  /** strip_empty_ends: trailing newlines dropped from stdout/stderr, as the module does. */
  stripEmptyEnds: boolean;
}

export interface ModuleResult {
  changed: boolean;
  failed?: boolean;
  skipped?: boolean;
  msg?: unknown;
  diff?: { before?: string; after?: string; header?: string }[];
  /** Extra fields registered with `register:` (stdout, rc, ...). */
  [key: string]: unknown;
}

/**
 * Work a module leaves for after the batch on one host (systemd_unit's daemon-reload): kept on the
 * runner's per-host state under a key, so however many tasks defer it, it runs once. A later task may
 * do the work first and delete the key (service reloads before it acts); the runner runs what is left
 * when the batch's tasks and handlers are done.
 */
export interface DeferredStep {
  /** What it runs, named when it fails ('systemctl daemon-reload'). */
  describe: string;
  run(): Promise<void>;
}

/** What a module sees when it runs on one host. */
/** Evaluation the engine lends a module (modules stand below the engine's templating). */
export interface TaskExpressions {
  /** An expression's value; `defined: false` when it names an undefined variable. */
  value(expr: string): { defined: true; value: unknown } | { defined: false };
  condition(cond: string | boolean): boolean;
}

export interface ModuleContext {
  host: string;
  transport: Transport;
  check: boolean;
  diff: boolean;
  /** -v count of the run (debug's `verbosity:` threshold); 0 when not given. */
  verbosity?: number;
  become?: BecomeOptions;
  /** The task's no_log (a fallback module is told, as Ansible tells it with _ansible_no_log). */
  noLog?: boolean;
  /** All variables of the host at this task (facts included). */
  vars: Record<string, unknown>;
  /** Directory of the role (or playbook) the task came from: files/ and templates/ live under it. */
  baseDir: string;
  /** The task's rendered `environment:` (only given to modules whose `environment` is 'applies'). */
  environment?: Record<string, string>;
  /** Render a template string with the task's variables (template module). */
  /** `file`: the template file the text came from, so an error names it and its line. */
  render(template: string, file?: string): string;
  /** Run a probe now (or take it from the runner's prefetched batch). */
  probe<S>(probe: Probe<S>): Promise<S>;
  /**
   * Jinja2 expressions and conditions with the task's variables, for modules about the run itself
   * (debug's var, assert's that). The runner gives it to every task; a hand-built context may omit it.
   */
  expressions?: TaskExpressions;
  /** A controller-side vars file read as vars_files are (vault, PyYAML's rules); the runner lends it (include_vars). */
  readVarsFile?(file: string): Promise<unknown>;
  /**
   * Waits `ms` on the controller, or less when the run is interrupted (Ctrl-C): resolves to false then.
   * The runner lends it (pause, reboot's waits); a hand-built context may omit it.
   */
  wait?(ms: number): Promise<boolean>;
  /**
   * Asks the user a question on the controller's terminal and returns the answer; lent only when the
   * run is interactive (stdin and stdout a terminal, not --json/--yes), as Ansible's pause asks only then.
   */
  ask?(question: string, echo: boolean): Promise<string>;
  /** The task's display name (pause shows it above its prompt, as Ansible does). */
  taskName?: string;
  /** The deferred steps pending on the host the module acts on (the delegate's with delegate_to), by key. */
  deferred: Map<string, DeferredStep>;
}

/** A module's reference text: `hostwire doc MODULE` prints it beside what the zod schema says of each
 * argument (type, default, choices, aliases). Kept in the module folder's doc.ts. */
export interface ModuleDoc {
  /** One paragraph: what the module manages, how it reads and changes it, where it differs from Ansible. */
  description: string;
  /** One line per argument the schema accepts, no more and no fewer (test/modules/docs.test.ts). */
  args: Record<string, string>;
  /** A task using the module, as YAML. */
  example: string;
  /** Check mode (Ansible's attribute): full - predicts exactly; partial - some uses are skipped; none. */
  check: 'full' | 'partial' | 'none';
  /** --diff: full - before/after of every change; partial; none. */
  diff: 'full' | 'partial' | 'none';
}

export interface Module<Args = Record<string, unknown>, State = unknown> {
  name: string;
  /** The reference text (description, arguments, example, check/diff support). */
  doc: ModuleDoc;
  /**
   * Where the result's ansible_facts land (ansible-core 2.14's strategy): by default the host's facts,
   * as any module's (service_facts, package_facts, a library/ module's through the fallback): seen as
   * `ansible_facts.X` and as `X` at the facts' precedence, kept for later plays ('host' says so
   * explicitly). 'set_fact': set_fact's level (data, above task vars), not in ansible_facts.
   * 'include_vars': Ansible's include_vars level - below set_fact/register, above task vars - kept as
   * templates, like vars files (controller data).
   */
  factsLevel?: 'include_vars' | 'set_fact' | 'host';
  /**
   * Ansible's BYPASS_HOST_LOOP (add_host, pause): the task runs once for the whole batch, on its first
   * host, however many hosts the play has; its register stays on that host unless run_once says otherwise.
   */
  bypassHostLoop?: boolean;
  /** Validates rendered args; errors name the argument, what was expected and what came. */
  args: ZodType<Args, any, any>;
  /** Args that are expressions the module evaluates itself (assert's `that`, debug's `var`): the runner
   * passes them unrendered, or data rendered into them would be evaluated a second time, as a template. */
  expressionArgs?: readonly string[];
  /** Modules whose result depends on no state (debug, set_fact) or that act directly (command) implement run(). */
  run?(args: Args, ctx: ModuleContext): Promise<ModuleResult>;
  /** State-reading modules declare a probe; the runner may batch it with other tasks' probes. */
  probe?(args: Args, ctx: Pick<ModuleContext, 'host' | 'vars'>): Probe<State>;
  plan?(state: State, args: Args, ctx: ModuleContext): Change[];
  /** Probes a run() module will ask for (command's creates/removes), so the runner can read them ahead. */
  readsAhead?(args: Args): ProbeRead[];
  /** Defaults to running each change's write/run in one exec. */
  /** May return fields for the result (what applyChanges reports, such as backup_file). */
  apply?(changes: Change[], args: Args, ctx: ModuleContext): Promise<void | Record<string, unknown>>;
  /**
   * `environment:` (Ansible's per-task environment): 'applies' when the module passes it to what it
   * runs, 'irrelevant' when it runs nothing on the host (debug, set_fact); otherwise it is refused.
   */
  environment?: 'applies' | 'irrelevant';
  /**
   * `async:` (Ansible's async_wrapper): what to run detached on the host, or the result when the module
   * already knows it (command's creates). A module without it refuses `async` ("async is not supported").
   */
  background?(args: Args, ctx: ModuleContext): Promise<BackgroundCommand | { done: ModuleResult }>;
  /**
   * Under --check the runner is the one gate: a plan module stops after plan(); a run() module that
   * cannot predict its outcome says so here (true, or per args: command without creates/removes) and
   * the runner skips it without calling run(). Modules whose run() acts on nothing (debug) leave it unset.
   */
  skipsInCheck?: boolean | ((args: Args) => boolean);
  /** The result registered when the runner skips the module under --check, in Ansible's shape for this
   * module; by default AnsibleModule's: skipped, "remote module (NAME) does not support check mode". */
  checkSkipped?(args: Args): ModuleResult;
  /**
   * Called once per host as soon as its connection is open, when the play holds a task of this module
   * (not awaited, errors ignored): a module that keeps something running on the host for the run
   * starts it here (the Ansible-module fallback's Python worker) while the run lock is taken.
   */
  warmUp?(host: { transport: Transport; vars: Record<string, unknown> }): void;
  /**
   * The controller-side part of a warm-up, called (likewise not awaited) before a host's connection is
   * opened, so it runs while the connection comes up (the fallback builds its payload here).
   */
  prepare?(): void;
}
