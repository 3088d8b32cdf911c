// Normalized playbook structures: what the loader produces and the runner consumes.
// Values stay untemplated here; the runner renders them per host.
import type { SourceLoc } from '../../errors.js';
import type { HostOrder } from './play-order.js';
import type { ModuleDefaults } from './module-defaults.js';

export type Vars = Record<string, unknown>;

/** Where a task came from: its role (if any) decides the TASK [role : name] prefix and files/templates dirs. */
export interface RoleContext {
  /** role_name: as written where it was found in a search path, else its folder's name. */
  name: string;
  /** `ns.coll` of a collection role. */
  collection?: string;
  dir: string;
  defaults: Vars;
  vars: Vars;
  /** Parameters given where the role was listed (roles: - role: x, vars...). */
  params: Vars;
  /** Its meta dependencies (loaded before it): their defaults and vars come with it when it is public. */
  dependencies?: RoleContext[];
}

/** Role.get_name(): how task names and --list-tasks show the role (ns.coll.name for a collection role). */
export function roleDisplayName(role: RoleContext): string {
  return role.collection ? `${role.collection}.${role.name}` : role.name;
}

export interface TaskCommon {
  name?: string;
  when: unknown[];
  tags: string[];
  vars: Vars;
  become?: boolean;
  becomeUser?: string;
  ignoreErrors?: unknown;
  /** `ignore_unreachable:` a literal boolean or a template rendered per host (inherited like ignore_errors). */
  ignoreUnreachable?: boolean | string;
  /** A literal boolean or a template rendered per host; the innermost one set wins. */
  checkMode?: boolean | string;
  noLog?: boolean;
  delegateTo?: string;
  /** delegate_facts: facts the delegated task sets go to the delegate. */
  delegateFacts?: boolean;
  /** `remote_user:` (a template rendered per host): the SSH login for this task, below the host's ansible_user. */
  remoteUser?: string;
  /** any_errors_fatal on the task or around it (the play's is PlayDef.anyErrorsFatal). */
  anyErrorsFatal?: boolean;
  /** `diff:` on the task or around it (or the play): overrides --diff for the task. */
  diff?: boolean;
  /** `throttle:` on the task or its block/role: at most this many hosts run it at once (0: forks only). */
  throttle?: number | string;
  /** `timeout:` (Ansible's task timeout, seconds or a template): the action fails when it runs longer. */
  timeout?: number | string;
  /** `environment:` (a mapping or a template of one); outer ones first, the task's last wins per key. */
  environment?: unknown;
  /** `module_defaults:` written here (one level per mapping); the runner stacks the levels around a task. */
  moduleDefaults?: ModuleDefaults[];
  /** `connection:` on a task or block; only local is acted on (the task runs on the controller). */
  connection?: 'ssh' | 'local';
  runOnce?: boolean;
  role?: RoleContext;
  /** Directory relative paths resolve against (the role dir or the playbook dir). */
  baseDir: string;
  loc: SourceLoc;
}

export interface TaskDef extends TaskCommon {
  kind: 'task';
  /** Short module name: 'ansible.builtin.command' -> 'command'. */
  module: string;
  /** The action as the task wrote it ('ansible.builtin.command'): an unnamed task is listed by it. */
  written: string;
  args: Vars;
  loop?: unknown;
  /** with_X loops: the lookup X that turns `loop` (its terms) into the items. */
  loopWith?: string;
  loopLabel?: string;
  loopVar: string;
  register?: string;
  notify: string[];
  changedWhen?: unknown;
  failedWhen?: unknown;
  until?: unknown;
  /** `retries:`/`delay:` (a number, or a template rendered per host when the task has `until`). */
  retries: number | string;
  delay: number | string;
  /** `async:` seconds (a number, or a template rendered per host): the task runs detached on the host. */
  async?: number | string;
  /** `poll:` seconds between status reads (Ansible's default 15); 0 fires and forgets (async_status reads it). */
  poll?: number | string;
  /** Handlers only: extra topics this handler listens to. */
  listen: string[];
}

export interface BlockDef extends TaskCommon {
  kind: 'block';
  block: TaskItem[];
  rescue: TaskItem[];
  always: TaskItem[];
  /** A role met again: its own tasks after `block` (its dependencies), listed by --list-tasks, never run. */
  listed?: TaskItem[];
  /** Set when the block is an include_tasks/include_role task (as written): listed as that one task. */
  include?: string;
  /** Set when the block is an import_tasks (static): among handlers, its tasks become handlers of their own. */
  imported?: boolean;
  /** include_tasks/include_role: resolved per host at run time (the block's own keywords are the include's). */
  dynamic?: IncludeSpec;
}

/**
 * A dynamic include, as Ansible's TaskInclude/IncludeRole: its when, loop, tags, ignore_errors and no_log
 * belong to the include itself (not inherited by what it includes); its vars and `apply:` reach the
 * included tasks. The target is rendered per host (per loop item) with that host's vars, facts included.
 */
export interface IncludeSpec {
  action: 'include_tasks' | 'include_role';
  /** The include as a task (module include_tasks/include_role), for its events, loop and result. */
  task: TaskDef;
  /** include_tasks: the file; include_role: the role name. */
  target: string;
  /** include_role's tasks_from, vars_from, defaults_from, handlers_from (templates rendered per host). */
  from: { tasks?: string; vars?: string; defaults?: string; handlers?: string };
  /** `with_<lookup>:` loops: the lookup; the task's `loop` holds its terms. */
  loopWith?: string;
  /** The include's arguments, registered as `include_args` (Ansible's result of an include). */
  args: Vars;
  /** include_role `public: true` (or a template true for a host): the role's vars and defaults are seen by the play's later tasks. */
  public?: boolean | string;
  /** include_role `allow_duplicates: false` (or a template false for a host): a host that already ran the role (same files, vars) skips it. */
  allowDuplicates?: boolean | string;
  /** include_role `rolespec_validate` (default true; a template rendered per host): the argument_specs check first. */
  validate?: boolean | string;
  /** Loads what a rendered target names, `apply:` wrapped round it (cached per target and validate). */
  load(target: string, from: IncludeSpec['from'], loc: SourceLoc, validate?: boolean): Promise<IncludeLoaded>;
}

/** What an include loaded: its tasks (apply: wrapped round them), handlers, and for a role, the role. */
export interface IncludeLoaded {
  tasks: TaskItem[];
  handlers: TaskDef[];
  role?: RoleContext;
  /** The role and what it was loaded with, for allow_duplicates. */
  roleKey?: string;
}

export type TaskItem = TaskDef | BlockDef;

export interface PlayDef {
  name: string;
  hosts: string;
  vars: Vars;
  varsFiles: string[];
  preTasks: TaskItem[];
  /** Role tasks (in roles: order, dependencies first) followed by the play's tasks. */
  tasks: TaskItem[];
  postTasks: TaskItem[];
  handlers: TaskDef[];
  gatherFacts: boolean;
  /** gather_facts was written in the play (ansible.cfg's `gathering` decides otherwise). */
  gatherFactsSet?: boolean;
  /** Fact probe ids gather_subset asks for. */
  gatherSubset: Set<string>;
  become?: boolean;
  becomeUser?: string;
  serial: (number | string)[];
  anyErrorsFatal: boolean;
  maxFailPercentage?: number;
  strategy: 'linear';
  /** `order:` the order the play's hosts start in (inventory when unset). */
  order?: HostOrder;
  tags: string[];
  checkMode?: boolean | string;
  environment?: unknown;
  moduleDefaults?: ModuleDefaults[];
  /** `remote_user:` of the play: the SSH login of its connections where the host sets no ansible_user. */
  remoteUser?: string;
  /** no_log and ignore_errors on the play: every task without its own (or a block's) inherits them. */
  noLog?: boolean;
  ignoreErrors?: unknown;
  /** ignore_unreachable on the play: inherited by its tasks, and its Gathering Facts keeps an unreachable host. */
  ignoreUnreachable?: boolean | string;
  diff?: boolean;
  /** vars_prompt names: hostwire never prompts, so each must come with -e (as Ansible skips the prompt then). */
  varsPrompt: { name: string; loc: SourceLoc }[];
  /** The play's `connection:` (a host's own ansible_connection still wins, as in Ansible). */
  connection?: 'ssh' | 'local';
  runOnce?: boolean;
  /** Roles listed in the play (for role vars precedence); their tasks are already in `tasks`. */
  roles: RoleContext[];
  baseDir: string;
  loc: SourceLoc;
}

export interface Playbook {
  path: string;
  dir: string;
  plays: PlayDef[];
}
