// Ansible inventories: load (YAML, INI, directories, host lists, group_vars/host_vars),
// select hosts by pattern, merge a host's vars, read its connection settings, and print
// the same views as ansible-inventory.
export type { Inventory, InventoryGroup, InventoryHost, Vars, VarsLayer } from './types.js';
export { LOCALHOST_NAMES } from './types.js';
export { loadInventory, loadFile } from './load.js';
export { loadVarsDir, findVarsFiles, readVarsFile } from './vars-dirs.js';
export { emptyInventory, addGroup, addHost, addChildGroup, setGroupVar, reconcile, groupHosts, hostGroups, descendants, ancestors } from './data.js';
export { parseIni } from './parse-ini.js';
export { parseYamlInventory } from './parse-yaml.js';
export { expandHostPattern, expandHostRange, parseAddress, isIpAddress } from './host-range.js';
export { parseIniValue, literalEval } from './py-literal.js';
export { hostVars, inventoryVars, groupNames, groupsMap, sortGroups, isImplicitLocalhost, type HostVarsOptions } from './host-vars.js';
export { selectHosts, splitHostPattern, orderPatterns, evaluatePatterns, type SelectOptions } from './patterns.js';
export { connectionSettings, parseSshArgs, parseJump, toBool, type ConnectionSettings, type JumpHost } from './connection.js';
export {
  inventoryToJson, inventoryToGraph, formatInventoryJson, listedHostVars, listedGroupVars, INTERNAL_VARS,
  type InventoryViewOptions, type GraphOptions,
} from './to-json.js';
export { addDynamicHost, addDynamicGroup, type NewHostInfo } from './dynamic.js';
