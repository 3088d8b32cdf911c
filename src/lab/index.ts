// Public API of the lab: throw-away hosts on this machine.
export { labUp, labDown, type LabUpOptions, type LabUpResult } from './lab.js';
export { labList, labReboot, labCapabilities, requireLab, requireHost, type LabSummary } from './lab-ops.js';
export { labInventory, labInventoryYaml } from './inventory.js';
export { labExec, labSshArgv, labSshOptions, labSshInteractive } from './ssh.js';
export { ensureRootfs, DEFAULT_PACKAGES, type Rootfs, type RootfsOptions } from './rootfs.js';
export { readState, type LabState, type HostState, type HostKind, type LabCapabilities } from './state.js';
export { registerLabCommands } from './cli.js';
export { DEFAULT_LAB, checkLabName } from './names.js';
export { labSetLink } from './lab-link.js';
export { OWNER_ENV, LabOwnedError, sweepOrphanedLabs } from './owner.js';
export { parseWire, type Wire, type WireEnd, type VmNic } from './vm/nics.js';
