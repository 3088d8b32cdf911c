// The in-memory inventory changed by a run, as ansible-core 2.14's InventoryManager does it
// (add_dynamic_host for add_host, add_dynamic_group for group_by): each says whether anything
// changed, which becomes the task's `changed`, and reconciles the inventory when it did.
import { BadInputError } from '../../errors.js';
import { addChildGroup, addGroup, addHost, reconcile } from './data.js';
import type { Inventory, Vars } from './types.js';

/** What add_host returns under `add_host`. */
export interface NewHostInfo {
  host_name: string;
  groups: string[];
  host_vars: Vars;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** add_dynamic_host: the host (under all), its vars combined over its own, and its groups. */
export function addDynamicHost(inv: Inventory, info: NewHostInfo): boolean {
  let changed = false;
  if (!inv.hosts.has(info.host_name)) {
    addHost(inv, info.host_name, { group: 'all' });
    changed = true;
  }
  const host = inv.hosts.get(info.host_name)!;
  // combine_vars with the default hash_behaviour (replace): the new keys win, one level deep.
  const combined = { ...host.vars, ...info.host_vars };
  if (!sameJson(combined, host.vars)) {
    host.vars = combined;
    changed = true;
  }
  host.dataKeys = [...new Set([...(host.dataKeys ?? []), ...Object.keys(info.host_vars)])];
  for (const name of info.groups) {
    if (!inv.groups.has(name)) {
      addGroup(inv, name);
      changed = true;
    }
    const g = inv.groups.get(name)!;
    if (!g.hosts.includes(info.host_name)) {
      g.hosts.push(info.host_name);
      changed = true;
    }
  }
  if (changed) reconcile(inv);
  return changed;
}

/** add_dynamic_group: `host` joins `group`, which becomes a child of each parent (created as needed). */
export function addDynamicGroup(inv: Inventory, host: string, group: string, parents: string[]): boolean {
  let changed = false;
  if (!inv.hosts.has(host)) throw new BadInputError(`${host} cannot be matched in inventory`);
  if (!inv.groups.has(group)) addGroup(inv, group);
  for (const p of parents) {
    if (!inv.groups.has(p)) {
      addGroup(inv, p);
      changed = true;
    }
  }
  for (const p of parents) {
    if (!inv.groups.get(p)!.children.includes(group)) {
      addChildGroup(inv, p, group);
      changed = true;
    }
  }
  const g = inv.groups.get(group)!;
  if (!g.hosts.includes(host)) {
    g.hosts.push(host);
    changed = true;
  }
  if (changed) reconcile(inv);
  return changed;
}
