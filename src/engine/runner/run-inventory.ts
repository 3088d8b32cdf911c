// The run's inventory as add_host and group_by change it: the edit itself (inventory/dynamic.ts),
// then the hosts whose inventory vars it touched are read again (group_names, the new vars).
import { addDynamicGroup, addDynamicHost, groupsMap, type Inventory } from '../inventory/index.js';
import type { RunInventory } from './play-run.js';
import type { RunHosts } from './run-hosts.js';

export function runInventory(inv: Inventory, hosts: Pick<RunHosts, 'refreshHost'>): RunInventory {
  return {
    addHost(info) {
      const changed = addDynamicHost(inv, info);
      if (changed) hosts.refreshHost(info.host_name);
      return changed;
    },
    addGroup(host, group, parents) {
      const changed = addDynamicGroup(inv, host, group, parents);
      hosts.refreshHost(host);
      return changed;
    },
    groups: () => groupsMap(inv),
    hostNames: () => [...inv.hosts.keys()],
  };
}
