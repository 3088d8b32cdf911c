// Variable precedence for one task on one host (lowest first), as documented in the README:
// role defaults < inventory (all < parent < child < host) < facts < play vars/vars_files
// < role vars and params < block vars < task vars < include_vars < set_fact/register < extra vars (-e).
import { mergeTrustedLayers, mergeVars, templatedVars } from '../vars/index.js';
import type { PlayDef, RoleContext, TaskDef, Vars } from '../playbook/types.js';
import { roleDisplayName } from '../playbook/types.js';
import type { HostState } from './host-state.js';
import type { CheckModeValue } from './check-mode.js';
import type { ModuleDefaults } from '../playbook/module-defaults.js';
import { hasOwn, setOwn } from '../../own-keys.js';

/** What surrounds a task: the blocks it sits in, outermost first. */
export interface Scope {
  vars: Vars[];
  when: unknown[];
  tags: string[];
  become?: boolean;
  becomeUser?: string;
  /** The innermost check_mode set around the task (block, role, play). */
  checkMode?: CheckModeValue;
  /** `environment:` mappings of the play, roles and blocks around the task, outermost first. */
  environment: unknown[];
  /** `module_defaults:` levels of the play, roles and blocks around the task, outermost first. */
  moduleDefaults: ModuleDefaults[];
  /** The innermost block's `connection:` (a task's own wins). */
  connection?: 'ssh' | 'local';
  /** run_once set on the play or an enclosing block (a task's own wins). */
  runOnce?: boolean;
  role?: RoleContext;
  /** Values that are data, never rendered (an include loop's item): above register/set_fact, as include params. */
  data?: Vars[];
}

export const rootScope = (play: PlayDef): Scope => ({ vars: [], when: [], tags: [...play.tags], become: play.become, becomeUser: play.becomeUser, checkMode: play.checkMode, environment: play.environment === undefined ? [] : [play.environment], moduleDefaults: play.moduleDefaults ?? [], runOnce: play.runOnce });

export function childScope(parent: Scope, item: { vars: Vars; when: unknown[]; tags: string[]; become?: boolean; becomeUser?: string; checkMode?: CheckModeValue; connection?: 'ssh' | 'local'; environment?: unknown; moduleDefaults?: ModuleDefaults[]; runOnce?: boolean; role?: RoleContext; data?: Vars }): Scope {
  return {
    data: item.data ? [...(parent.data ?? []), item.data] : parent.data,
    vars: [...parent.vars, item.vars],
    when: [...parent.when, ...item.when],
    tags: [...parent.tags, ...item.tags],
    become: item.become ?? parent.become,
    becomeUser: item.becomeUser ?? parent.becomeUser,
    checkMode: item.checkMode ?? parent.checkMode,
    connection: item.connection ?? parent.connection,
    environment: item.environment === undefined ? parent.environment : [...parent.environment, item.environment],
    moduleDefaults: item.moduleDefaults ? [...parent.moduleDefaults, ...item.moduleDefaults] : parent.moduleDefaults,
    runOnce: item.runOnce ?? parent.runOnce,
    role: item.role ?? parent.role,
  };
}

export interface RunVarsContext {
  play: PlayDef;
  playFileVars: Vars;
  extraVars: Vars;
  hosts: Map<string, HostState>;
  /** Every inventory host, for `hostvars` (Ansible has them all, not only the hosts of this run). */
  /** Every inventory host (also those the play does not run on); `dataKeys`: the vars add_host set (data). */
  inventoryHosts?: { names: string[]; vars(name: string): Vars; dataKeys?(name: string): ReadonlySet<string> | undefined };
  playHosts: string[];
  groups: Record<string, string[]>;
  check: boolean;
  diff: boolean;
  playbookDir: string;
  /** -v count (ansible_verbosity). */
  verbosity?: number;
}

/** ansible_version: the ansible-core release whose behaviour hostwire follows (roles compare against it). */
export const ANSIBLE_VERSION = { full: '2.14.18', major: 2, minor: 14, revision: 18, string: '2.14.18' } as const;

export function hostLevelVars(h: HostState): Vars {
  return mergeVars(h.inventoryVars, h.facts, h.includedVars, h.runtimeVars);
}

/** A host's inventory vars as layers: what add_host set is data (see HostState.dataKeys). */
function inventoryLayers(h: HostState): [Vars, 'trusted' | 'data'][] {
  return splitDataKeys(h.inventoryVars, h.dataKeys);
}

function splitDataKeys(inventoryVars: Vars, dataKeys: ReadonlySet<string> | undefined): [Vars, 'trusted' | 'data'][] {
  if (!dataKeys?.size) return [[inventoryVars, 'trusted']];
  const trusted: Vars = {};
  const data: Vars = {};
  for (const [k, v] of Object.entries(inventoryVars)) setOwn(dataKeys.has(k) ? data : trusted, k, v);
  return [[trusted, 'trusted'], [data, 'data']];
}

const hostvarsCache = new WeakMap<RunVarsContext, Vars>();

/** `hostvars` is built again on next use: the inventory gained a host (add_host). */
export function forgetHostvars(ctx: RunVarsContext): void {
  hostvarsCache.delete(ctx);
}

/** `hostvars`: live views of every host's vars, built once per run context. */
function hostvarsOf(ctx: RunVarsContext): Vars {
  let hv = hostvarsCache.get(ctx);
  if (!hv) {
    hv = {};
    const inv = ctx.inventoryHosts;
    for (const name of new Set([...(inv?.names ?? []), ...ctx.hosts.keys()])) {
      // A host of this run has facts and runtime vars; any other inventory host its inventory vars.
      Object.defineProperty(hv, name, { enumerable: true, get: () => hostView(ctx, name) });
    }
    hostvarsCache.set(ctx, hv);
  }
  return hv;
}

/**
 * One host's entry of `hostvars`: as in Ansible, its inventory values are templates rendered in that
 * host's own context (`vip: "{{ ansible_host | ... }}"` read from another host); its facts and runtime
 * results stay data, never rendered.
 */
function hostView(ctx: RunVarsContext, name: string): Vars {
  const other = ctx.hosts.get(name);
  // Not `hostvars` itself: a dump of hostvars[x] (to_json) would recurse.
  const magic: Vars = { inventory_hostname: name, inventory_hostname_short: name.split('.')[0], groups: ctx.groups };
  const { vars, isData } = mergeTrustedLayers(other
    ? [...inventoryLayers(other), [other.facts, 'data'], [other.includedVars, 'trusted'], [other.runtimeVars, 'data'], [magic, 'data']]
    : [...splitDataKeys(ctx.inventoryHosts!.vars(name), ctx.inventoryHosts!.dataKeys?.(name)), [magic, 'data']]);
  return templatedVars(vars, undefined, isData);
}

const namespaced = new WeakMap<Vars, Vars>();

/** ansible_facts as Ansible namespaces it (namespace_facts): `ansible_distribution` is also `distribution` there. */
function namespacedFacts(facts: Vars): Vars {
  let out = namespaced.get(facts);
  if (!out) {
    out = { ...facts };
    for (const [k, v] of Object.entries(facts)) if (k.startsWith('ansible_') && !hasOwn(out, k.slice(8))) setOwn(out, k.slice(8), v);
    namespaced.set(facts, out);
  }
  return out;
}

const NO_ROLES: RoleContext[] = [];
const publicCache = new WeakMap<RoleContext[], { count: number; defaults: Vars; vars: Vars }>();

/**
 * The defaults and vars of the play's roles (roles:, import_role, include_role public: true), each with
 * its dependencies' first, as Ansible merges play.get_roles() for every task of the play.
 */
function publicRoleVars(roles: RoleContext[]): { defaults: Vars; vars: Vars } {
  const hit = publicCache.get(roles);
  if (hit && hit.count === roles.length) return hit;
  const defaults: Vars[] = [];
  const vars: Vars[] = [];
  const add = (r: RoleContext) => {
    for (const d of r.dependencies ?? []) add(d);
    defaults.push(r.defaults);
    vars.push(r.vars);
  };
  for (const r of roles) add(r);
  const merged = { count: roles.length, defaults: mergeVars(...defaults), vars: mergeVars(...vars) };
  publicCache.set(roles, merged);
  return merged;
}

/** `check`: the task's effective check mode (ansible_check_mode), when it differs from --check. */
export function taskVars(ctx: RunVarsContext, h: HostState, scope: Scope, task?: TaskDef, extra?: Vars, check?: boolean): Vars {
  const role = task?.role ?? scope.role;
  const hostvars = hostvarsOf(ctx);
  const magic: Vars = {
    inventory_hostname: h.name,
    inventory_hostname_short: h.name.split('.')[0],
    groups: ctx.groups,
    hostvars,
    play_hosts: ctx.playHosts,
    ansible_play_hosts: ctx.playHosts,
    ansible_play_batch: ctx.playHosts,
    ansible_play_hosts_all: ctx.playHosts,
    ansible_check_mode: check ?? ctx.check,
    ansible_diff_mode: ctx.diff,
    ansible_verbosity: ctx.verbosity ?? 0,
    ansible_version: ANSIBLE_VERSION,
    playbook_dir: ctx.playbookDir,
    role_name: role?.name,
    ansible_role_name: role && roleDisplayName(role),
    role_path: role?.dir,
    ansible_facts: namespacedFacts(h.facts),
  };
  // Facts, register/set_fact results, loop items and the magic vars are data from hosts or from
  // rendering: never rendered again (a host cannot make the controller evaluate a template).
  const shared = publicRoleVars(ctx.play.roles ?? NO_ROLES);
  const { vars, isData } = mergeTrustedLayers([
    [shared.defaults, 'trusted'],
    [role?.defaults, 'trusted'],
    ...inventoryLayers(h),
    [h.facts, 'data'],
    [ctx.play.vars, 'trusted'],
    [ctx.playFileVars, 'trusted'],
    [shared.vars, 'trusted'],
    [role?.vars, 'trusted'],
    [role?.params, 'trusted'],
    ...scope.vars.map((v): [Vars, 'trusted'] => [v, 'trusted']),
    [task?.vars, 'trusted'],
    [h.includedVars, 'trusted'],
    [h.runtimeVars, 'data'],
    ...(scope.data ?? []).map((v): [Vars, 'data'] => [v, 'data']),
    [extra, 'data'],
    [ctx.extraVars, 'trusted'],
    [magic, 'data'],
  ]);
  return templatedVars(vars, undefined, isData);
}
