// The library API: the same typed events the CLI renders.
export { runPlaybook, EXIT, type RunOptions } from './engine/runner/run-playbook.js';
export type { RunEvent, RunSummary, HostResult, HostStats, TaskInfo, TaskStatus } from './engine/runner/events.js';
export { loadInventory, selectHosts, hostVars } from './engine/inventory/index.js';
export { loadPlaybook } from './engine/playbook/load-playbook.js';
export { BadInputError, HostwireError, CommandError, TransportError } from './errors.js';
export type { Module, Change, ModuleContext, ModuleResult } from './modules/types.js';
export type { Probe, ProbeOutput } from './probe/types.js';
export { registerModule } from './modules/registry.js';

// HOSTWIRE_TRACE=1 lines show each command's start with the vault's secrets masked (the transports
// sit below the vault and take the masker from here, as the CLI's main does).
import { setTraceMask } from './transports/trace.js';
import { maskText } from './vault/secrets.js';
setTraceMask(maskText);
