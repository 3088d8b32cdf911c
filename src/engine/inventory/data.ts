// Building an inventory the way ansible.inventory.data.InventoryData does: groups and
// hosts are added in file order, `all`/`ungrouped` exist from the start, and reconcile()
// attaches orphan groups to `all` and ungrouped hosts to `ungrouped` once every source is read.
import { BadInputError, type SourceLoc } from '../../errors.js';
import type { Inventory, InventoryGroup, InventoryHost } from './types.js';
import { setOwn } from '../../own-keys.js';

export function emptyInventory(sources: string[] = []): Inventory {
  const inv: Inventory = { sources, groups: new Map(), hosts: new Map(), varsLayers: [], warnings: [] };
  addGroup(inv, 'all');
  addGroup(inv, 'ungrouped');
  addChildGroup(inv, 'all', 'ungrouped');
  return inv;
}

export function addGroup(inv: Inventory, name: string, loc?: SourceLoc): InventoryGroup {
  if (!name) throw new BadInputError('empty group name', loc);
  let g = inv.groups.get(name);
  if (!g) {
    g = { name, depth: 0, priority: 1, vars: {}, children: [], parents: [], hosts: [], loc };
    inv.groups.set(name, g);
  }
  return g;
}

export function addHost(inv: Inventory, name: string, opts: { group?: string; port?: number; source?: string; loc?: SourceLoc } = {}): InventoryHost {
  if (!name) throw new BadInputError('empty host name', opts.loc);
  // One host per line in the retry file, the recap and every report: a newline would make two hosts.
  const control = /[\x00-\x1f\x7f]/.exec(name);
  if (control) throw new BadInputError(`host name ${JSON.stringify(name)} contains a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}); expected a name or address without control characters`, opts.loc);
  let h = inv.hosts.get(name);
  if (!h) {
    h = { name, vars: {}, source: opts.source, loc: opts.loc };
    // Ansible only honours host:port when the host is first seen.
    if (opts.port !== undefined) h.vars.ansible_port = opts.port;
    inv.hosts.set(name, h);
  }
  if (opts.group) {
    const g = inv.groups.get(opts.group);
    if (!g) throw new BadInputError(`group ${opts.group} is not defined`, opts.loc);
    if (!g.hosts.includes(name)) g.hosts.push(name);
  }
  return h;
}

export function setGroupVar(inv: Inventory, group: string, key: string, value: unknown): void {
  const g = inv.groups.get(group);
  if (!g) throw new BadInputError(`group ${group} is not defined`);
  if (key === 'ansible_group_priority') {
    const n = Number(value);
    if (Number.isInteger(n)) g.priority = n;
    return;
  }
  setOwn(g.vars, key, value);
}

/** Ancestors of a group (not including itself). */
export function ancestors(inv: Inventory, name: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(inv.groups.get(name)?.parents ?? [])];
  while (todo.length) {
    const p = todo.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    todo.push(...(inv.groups.get(p)?.parents ?? []));
  }
  return seen;
}

export function addChildGroup(inv: Inventory, parent: string, child: string, loc?: SourceLoc): void {
  const p = inv.groups.get(parent);
  const c = inv.groups.get(child);
  if (!p || !c) throw new BadInputError(`group ${!p ? parent : child} is not defined`, loc);
  if (parent === child) {
    throw new BadInputError(`group '${child}' is listed as a child of itself; expected a group hierarchy without cycles`, loc);
  }
  if (p.children.includes(child)) return;
  if (ancestors(inv, parent).has(child)) {
    throw new BadInputError(
      `adding group '${child}' as a child of '${parent}' creates a cycle (${child} is already an ancestor of ${parent}); expected a group hierarchy without cycles`,
      loc,
    );
  }
  p.children.push(child);
  if (!c.parents.includes(parent)) c.parents.push(parent);
}

/** Groups reachable below `name`, itself first, then level by level in declaration order. */
export function descendants(inv: Inventory, name: string, includeSelf = true): string[] {
  const ordered = includeSelf ? [name] : [];
  const seen = new Set<string>([name]);
  let level = [name];
  while (level.length) {
    const next: string[] = [];
    for (const g of level) {
      for (const kid of inv.groups.get(g)?.children ?? []) {
        if (seen.has(kid)) continue;
        seen.add(kid);
        ordered.push(kid);
        next.push(kid);
      }
    }
    level = next;
  }
  return ordered;
}

/** Hosts of a group and all its descendants, deduplicated, in Ansible's get_hosts() order. */
export function groupHosts(inv: Inventory, name: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const g of descendants(inv, name)) {
    for (const h of inv.groups.get(g)?.hosts ?? []) {
      if (!seen.has(h)) {
        seen.add(h);
        out.push(h);
      }
    }
  }
  return out;
}

// Lookups below run once per host per play: cache them per inventory, and drop the cache
// whenever the shape changes (groups, hosts or edges added or removed).
interface Index {
  sig: string;
  direct: Map<string, string[]>;
  ancestors: Map<string, Set<string>>;
  hostsOf: Map<string, string[]>;
}
const indexes = new WeakMap<Inventory, Index>();

function signature(inv: Inventory): string {
  let edges = 0;
  let members = 0;
  for (const g of inv.groups.values()) {
    edges += g.children.length;
    members += g.hosts.length;
  }
  return `${inv.groups.size}/${inv.hosts.size}/${edges}/${members}`;
}

function index(inv: Inventory): Index {
  const sig = signature(inv);
  let idx = indexes.get(inv);
  if (!idx || idx.sig !== sig) {
    idx = { sig, direct: new Map(), ancestors: new Map(), hostsOf: new Map() };
    for (const g of inv.groups.values()) {
      for (const h of g.hosts) {
        const list = idx.direct.get(h);
        if (list) list.push(g.name);
        else idx.direct.set(h, [g.name]);
      }
    }
    indexes.set(inv, idx);
  }
  return idx;
}

/** Hosts of a group and its descendants (cached); treat the result as read-only. */
export function cachedGroupHosts(inv: Inventory, name: string): string[] {
  const idx = index(inv);
  let hosts = idx.hostsOf.get(name);
  if (!hosts) idx.hostsOf.set(name, (hosts = groupHosts(inv, name)));
  return hosts;
}

/** Every group a host belongs to, directly or through a parent group (including `all`). */
export function hostGroups(inv: Inventory, host: string): Set<string> {
  const idx = index(inv);
  const out = new Set<string>();
  for (const g of idx.direct.get(host) ?? []) {
    out.add(g);
    let anc = idx.ancestors.get(g);
    if (!anc) idx.ancestors.set(g, (anc = ancestors(inv, g)));
    for (const a of anc) out.add(a);
  }
  return out;
}

/**
 * Ansible's reconcile_inventory(): groups without a parent become children of `all`,
 * hosts with no group land in `ungrouped` (and leave it once they have a real group),
 * and group depths are settled (longest path from `all`).
 */
export function reconcile(inv: Inventory): void {
  for (const g of inv.groups.values()) {
    if (g.name !== 'all' && g.parents.length === 0) addChildGroup(inv, 'all', g.name);
  }
  const ungrouped = inv.groups.get('ungrouped')!;
  for (const h of inv.hosts.keys()) {
    const mine = hostGroups(inv, h);
    if (mine.has('ungrouped')) {
      if ([...mine].some((g) => g !== 'all' && g !== 'ungrouped')) ungrouped.hosts = ungrouped.hosts.filter((x) => x !== h);
    } else if (mine.size === 0 || (mine.size === 1 && mine.has('all'))) {
      // Ansible calls add_child('ungrouped', name), which prefers a *group* of that name:
      // a host named like a group leaves that group under `ungrouped` instead of itself.
      if (inv.groups.has(h) && h !== 'all' && h !== 'ungrouped') addChildGroup(inv, 'ungrouped', h);
      else ungrouped.hosts.push(h);
    }
  }
  const memo = new Map<string, number>();
  const depthOf = (name: string): number => {
    if (name === 'all') return 0;
    const known = memo.get(name);
    if (known !== undefined) return known;
    const parents = inv.groups.get(name)?.parents ?? [];
    const d = parents.length ? Math.max(...parents.map(depthOf)) + 1 : 0;
    memo.set(name, d);
    return d;
  };
  for (const g of inv.groups.values()) g.depth = depthOf(g.name);
  for (const name of inv.groups.keys()) {
    if (inv.hosts.has(name)) inv.warnings.push(`Found both group and host with same name: ${name}`);
  }
}
