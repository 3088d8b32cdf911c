// The views `ansible-inventory --list` and `--graph` print, built from our Inventory so the
// output can be compared with Ansible's byte for byte (JSON: sorted keys, 4-space indent).
import { BadInputError } from '../../errors.js';
import { groupHosts } from './data.js';
import { inventoryVars } from './host-vars.js';
import { pyStr } from './py-repr.js';
import type { Inventory, Vars } from './types.js';
import { setOwn } from '../../own-keys.js';

/** Ansible's INTERNAL_VARS: magic vars that ansible-inventory never prints. */
export const INTERNAL_VARS: readonly string[] = [
  'ansible_diff_mode', 'ansible_config_file', 'ansible_facts', 'ansible_forks', 'ansible_inventory_sources',
  'ansible_limit', 'ansible_playbook_python', 'ansible_run_tags', 'ansible_skip_tags', 'ansible_verbosity',
  'ansible_version', 'inventory_dir', 'inventory_file', 'inventory_hostname', 'inventory_hostname_short',
  'groups', 'group_names', 'omit', 'playbook_dir',
];

export interface InventoryViewOptions {
  /** Like --export: group vars under each group, host vars only as defined on the host. */
  export?: boolean;
}

function withoutInternal(vars: Vars): Vars {
  const out = { ...vars };
  for (const k of INTERNAL_VARS) delete out[k];
  return out;
}

/** --list/--graph host vars: flattened (or, with export, only the host's own). */
export function listedHostVars(inv: Inventory, host: string, opts: InventoryViewOptions = {}): Vars {
  if (!opts.export) return withoutInternal(inventoryVars(inv, host));
  let vars: Vars = { ...inv.hosts.get(host)?.vars };
  for (const layer of inv.varsLayers) vars = { ...vars, ...layer.hosts.get(host) };
  return withoutInternal(vars);
}

/** A group's own vars (inventory file + group_vars/), as --export and --graph --vars show them. */
export function listedGroupVars(inv: Inventory, group: string): Vars {
  const g = inv.groups.get(group)!;
  let vars: Vars = { ...g.vars };
  for (const layer of inv.varsLayers) vars = { ...vars, ...layer.groups.get(group) };
  if (g.priority !== 1) vars.ansible_group_priority = g.priority;
  return withoutInternal(vars);
}

export function inventoryToJson(inv: Inventory, opts: InventoryViewOptions = {}): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  const seen = new Set<string>();
  const format = (name: string): void => {
    const g = inv.groups.get(name)!;
    const entry: Record<string, unknown> = {};
    if (name !== 'all' && g.hosts.length) entry.hosts = [...g.hosts];
    if (g.children.length) entry.children = [...g.children];
    for (const kid of g.children) {
      if (!seen.has(kid)) {
        format(kid);
        seen.add(kid);
      }
    }
    if (opts.export) {
      const vars = listedGroupVars(inv, name);
      if (Object.keys(vars).length) entry.vars = vars;
    }
    if (Object.keys(entry).length) setOwn(results, name, entry);
  };
  format('all');
  const hostvars: Record<string, Vars> = {};
  for (const h of groupHosts(inv, 'all')) {
    const vars = listedHostVars(inv, h, opts);
    if (Object.keys(vars).length) setOwn(hostvars, h, vars);
  }
  results._meta = { hostvars };
  return results;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
  }
  return v;
}

/** Text as `ansible-inventory --list` prints it (json.dumps(sort_keys=True, indent=4)). */
export function formatInventoryJson(data: unknown): string {
  return JSON.stringify(sortKeys(data), null, 4);
}

export interface GraphOptions {
  /** Start at this group (default `all`), like `ansible-inventory --graph GROUP`. */
  group?: string;
  /** Like --vars: show host and group vars under each entry. */
  vars?: boolean;
}

/** Text as `ansible-inventory --graph [--vars] [GROUP]` prints it. */
export function inventoryToGraph(inv: Inventory, opts: GraphOptions = {}): string {
  const start = opts.group ?? 'all';
  if (!inv.groups.has(start)) throw new BadInputError(`'${start}' is not a group; expected a group name to start the graph at`);
  const line = (text: string, depth: number): string => (depth ? '  |'.repeat(depth) + '--' + text : text);
  const showVars = (vars: Vars, depth: number): string[] =>
    Object.keys(vars).sort().map((k) => line(`{${k} = ${pyStr(vars[k])}}`, depth));
  const walk = (name: string, depth: number): string[] => {
    const g = inv.groups.get(name)!;
    const out = [line(`@${name}:`, depth)];
    for (const kid of g.children) out.push(...walk(kid, depth + 1));
    if (name !== 'all') {
      for (const h of g.hosts) {
        out.push(line(h, depth + 1));
        if (opts.vars) out.push(...showVars(listedHostVars(inv, h), depth + 2));
      }
    }
    if (opts.vars) out.push(...showVars(listedGroupVars(inv, name), depth + 1));
    return out;
  };
  return walk(start, 0).join('\n');
}
