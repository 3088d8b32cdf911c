// The inventory_hostnames lookup as ansible-core 2.14's (plugins/lookup/inventory_hostnames.py): an
// inventory made from the `groups` variable alone (each group flat, no vars), the terms evaluated
// as host patterns against it; a pattern that fails matches nothing.
import { addGroup, addHost, emptyInventory } from '../inventory/data.js';
import { evaluatePatterns, splitHostPattern } from '../inventory/patterns.js';
import { isPlainObject, pyStr } from './py.js';
import type { Vars } from '../playbook/types.js';

export function inventoryHostnamesLookup(terms: unknown[], _kw: Record<string, unknown>, vars: Vars): unknown[] {
  const inv = emptyInventory();
  const groups = isPlainObject(vars.groups) ? vars.groups : {};
  for (const [group, hosts] of Object.entries(groups)) {
    addGroup(inv, group);
    for (const host of Array.isArray(hosts) ? hosts : []) addHost(inv, pyStr(host), { group });
  }
  try {
    return evaluatePatterns(inv, splitHostPattern(terms.map(pyStr)));
  } catch {
    return [];
  }
}
