// What an include leaves behind for a host: its registered result (Ansible's TaskExecutor returns
// {include, include_args} for include_tasks and {include_args} for include_role, changed: false), and
// which roles the host has run, for include_role's allow_duplicates: false.
import type { IncludeSpec, Vars } from '../playbook/types.js';
import type { HostState } from './host-state.js';

/** The registered value of one inclusion (`target`: the rendered file for include_tasks). */
export function includeRegistered(spec: IncludeSpec, target: string): Vars {
  return spec.action === 'include_tasks'
    ? { include: target, include_args: { ...spec.args }, changed: false }
    : { include_args: { ...spec.args }, changed: false };
}

const rolesRun = new WeakMap<HostState, Set<string>>();

export function roleAlreadyRun(h: HostState, key: string | undefined): boolean {
  return key !== undefined && (rolesRun.get(h)?.has(key) ?? false);
}

export function markRoleRun(h: HostState, key: string | undefined): void {
  if (key === undefined) return;
  let set = rolesRun.get(h);
  if (!set) rolesRun.set(h, (set = new Set()));
  set.add(key);
}
