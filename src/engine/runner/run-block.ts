// A block with rescue and always, as Ansible runs it: rescue for the hosts that failed inside the
// block (they count as rescued, no longer failed); always for every host that entered, failed or not.
import type { BlockDef } from '../playbook/types.js';
import { isActive, type HostState } from './host-state.js';
import type { PlayRun } from './play-run.js';
import { childScope, type Scope } from './task-vars.js';

export async function runBlock(p: PlayRun, block: BlockDef, parent: Scope, only?: HostState[]): Promise<void> {
  const scope = childScope(parent, block);
  const entered = (only ?? p.batch).filter(isActive);
  await p.runItems(block.block, scope, entered);
  const failedHere = entered.filter((h) => h.failed && !h.unreachable);
  if (block.rescue.length && failedHere.length) {
    for (const h of failedHere) {
      h.failed = false;
      h.stats.failed--;
      h.stats.rescued++;
    }
    await p.runItems(block.rescue, scope, failedHere);
  }
  if (block.always.length) {
    // always runs for hosts that failed inside the block too; they stay failed afterwards.
    const stillFailed = entered.filter((h) => h.failed && !h.unreachable);
    for (const h of stillFailed) h.failed = false;
    await p.runItems(block.always, scope, entered);
    for (const h of stillFailed) h.failed = true;
  }
}
