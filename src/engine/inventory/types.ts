// The in-memory shape of an Ansible inventory, kept close to ansible.inventory.data
// so that ordering, depth and precedence come out the way Ansible computes them.
import type { SourceLoc } from '../../errors.js';

export type Vars = Record<string, unknown>;

export interface InventoryGroup {
  name: string;
  /** Longest path from `all` (all = 0); the first key when Ansible sorts groups for vars. */
  depth: number;
  /** `ansible_group_priority`, default 1; the second sort key. */
  priority: number;
  /** Vars set in the inventory file itself (not group_vars/). */
  vars: Vars;
  /** Direct children and parents, in the order they were declared. */
  children: string[];
  parents: string[];
  /** Hosts listed directly in this group, in declaration order. */
  hosts: string[];
  loc?: SourceLoc;
}

export interface InventoryHost {
  name: string;
  /** Inline vars from the inventory file (host line / hosts: mapping), plus ansible_port from `host:port`. */
  vars: Vars;
  /** The inventory file that first declared the host (Ansible's inventory_file). */
  source?: string;
  /** Vars add_host set from rendered task arguments: data, never rendered again (they may hold host output). */
  dataKeys?: string[];
  loc?: SourceLoc;
}

/** Vars read from one `group_vars/` + `host_vars/` pair, keyed by group or host name. */
export interface VarsLayer {
  dir: string;
  groups: Map<string, Vars>;
  hosts: Map<string, Vars>;
  /** Files read, in the order they were merged. */
  files: string[];
}

export interface Inventory {
  /** The sources as given (-i), made absolute. */
  sources: string[];
  /** Insertion order matters: pattern matching walks groups in this order. */
  groups: Map<string, InventoryGroup>;
  hosts: Map<string, InventoryHost>;
  /** One layer per source, in source order (inventory-adjacent group_vars/host_vars). */
  varsLayers: VarsLayer[];
  warnings: string[];
}

/** Names Ansible treats as the local machine (C.LOCALHOST). */
export const LOCALHOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '::1'];
