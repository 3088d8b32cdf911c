// The inventory-level variables of one host, merged in Ansible's order (VariableManager
// with the default VARIABLE_PRECEDENCE and hash_behaviour=replace, i.e. shallow merges):
//   all (inventory file) < other groups (inventory file, sorted by depth, priority, name)
//   < group_vars/all (inventory dirs, then playbook dir) < group_vars/<group> (same order)
//   < host inline vars < host_vars/<host> (inventory dirs, then playbook dir)
// and then the magic vars inventory_hostname(_short), group_names and groups.
import { dirname } from 'node:path';
import { BadInputError } from '../../errors.js';
import { cachedGroupHosts, hostGroups } from './data.js';
import { isIpAddress } from './host-range.js';
import { LOCALHOST_NAMES, type Inventory, type InventoryGroup, type Vars, type VarsLayer } from './types.js';
import { setOwn } from '../../own-keys.js';

export interface HostVarsOptions {
  /** group_vars/host_vars layers found next to the playbook (loadVarsDir), applied after the inventory's. */
  playLayers?: VarsLayer[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Ansible's sort_groups(): by depth, then ansible_group_priority, then name. */
export function sortGroups(groups: InventoryGroup[]): InventoryGroup[] {
  return [...groups].sort((a, b) => a.depth - b.depth || a.priority - b.priority || cmp(a.name, b.name));
}

/** Sorted group names of a host without `all`, as Ansible's group_names. */
export function groupNames(inv: Inventory, host: string): string[] {
  return [...hostGroups(inv, host)].filter((g) => g !== 'all').sort(cmp);
}

/** Ansible's `groups` magic var: every group (all and ungrouped included) -> its hosts. */
export function groupsMap(inv: Inventory): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of inv.groups.keys()) setOwn(out, name, [...cachedGroupHosts(inv, name)]);
  return out;
}

export function isImplicitLocalhost(inv: Inventory, host: string): boolean {
  return !inv.hosts.has(host) && LOCALHOST_NAMES.includes(host);
}

/** Vars that come from the inventory only (no magic vars): what ansible-inventory --list shows. */
export function inventoryVars(inv: Inventory, host: string, opts: HostVarsOptions = {}): Vars {
  const h = inv.hosts.get(host);
  if (!h && !isImplicitLocalhost(inv, host)) {
    throw new BadInputError(`unknown host '${host}'; expected a host defined in the inventory`);
  }
  const layers = [...inv.varsLayers, ...(opts.playLayers ?? [])];
  const groups = h ? sortGroups(groupNames(inv, host).map((g) => inv.groups.get(g)!)) : [];
  let vars: Vars = { ...inv.groups.get('all')!.vars };
  for (const g of groups) vars = { ...vars, ...g.vars };
  for (const layer of layers) vars = { ...vars, ...layer.groups.get('all') };
  for (const layer of layers) for (const g of groups) vars = { ...vars, ...layer.groups.get(g.name) };
  if (h) {
    vars = { ...vars, inventory_file: h.source ?? null, inventory_dir: h.source ? dirname(h.source) : null, ...h.vars };
  } else {
    vars = { ...vars, ansible_connection: 'local' };
  }
  for (const layer of layers) vars = { ...vars, ...layer.hosts.get(host) };
  return structuredClone(vars);
}

/** All inventory-level vars of a host plus the magic vars Ansible provides with them. */
export function hostVars(inv: Inventory, host: string, opts: HostVarsOptions = {}): Vars {
  const vars = inventoryVars(inv, host, opts);
  vars.inventory_hostname = host;
  vars.inventory_hostname_short = isIpAddress(host) ? host : host.split('.')[0];
  vars.group_names = inv.hosts.has(host) ? groupNames(inv, host) : [];
  vars.groups = groupsMap(inv);
  return vars;
}
