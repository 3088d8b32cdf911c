// What a task's result does to the run itself, as ansible-core 2.14's strategy does it
// (_process_pending_results): `add_host` adds a host to the in-memory inventory, `add_group` puts the
// host in a group (group_by), `ansible_stats` records custom stats (set_stats). The result's `changed`
// becomes whether the inventory changed. Only results that neither failed nor were skipped count.
import type { ModuleResult } from '../../modules/types.js';
import type { TaskDef, Vars } from '../playbook/types.js';
import type { HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { forgetHostvars } from './task-vars.js';

const isDict = (v: unknown): v is Vars => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The `onResult` of a task on host `h`; `runOnce`: the task's results count for every host of the play. */
export function runEffects(p: PlayRun, task: TaskDef, h: HostState, runOnce: boolean): (result: ModuleResult) => void {
  return (result) => {
    if (result.failed || result.skipped) return;
    const inv = p.opts.inventory;
    if (inv && isDict(result.add_host)) {
      const info = result.add_host;
      result.changed = inv.addHost({ host_name: String(info.host_name), groups: strings(info.groups), host_vars: isDict(info.host_vars) ? info.host_vars : {} });
      inventoryChanged(p);
    } else if (inv && typeof result.add_group === 'string') {
      result.changed = inv.addGroup(h.name, result.add_group, strings(result.parent_groups));
      inventoryChanged(p);
    }
    if (p.opts.customStats && isDict(result.ansible_stats)) {
      // get_task_hosts: every (reachable) host of the play for run_once, else the task's host.
      const hosts = runOnce ? p.vctx.playHosts.filter((n) => !p.vctx.hosts.get(n)?.unreachable) : [h.name];
      p.opts.customStats.record(result.ansible_stats, hosts);
    }
  };
}

/** The play's view of the inventory (`groups`, `hostvars`) follows the change at once, as in Ansible. */
function inventoryChanged(p: PlayRun): void {
  const inv = p.opts.inventory!;
  Object.assign(p.vctx.groups, inv.groups());
  if (p.vctx.inventoryHosts) p.vctx.inventoryHosts = { ...p.vctx.inventoryHosts, names: inv.hostNames() };
  forgetHostvars(p.vctx);
}
