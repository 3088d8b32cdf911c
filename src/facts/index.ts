// Public API of facts: gather them in one exec, or reuse the batch for other probes.
export { gatherFacts, assembleFacts, factsScript, FACT_PROBES } from './gather.js';
export type { Facts, DefaultIpFacts } from './facts.js';
export type { FactProbe } from './types.js';
export type { InterfaceFacts, Ipv4Address, Ipv6Address } from './interfaces.js';
export type { NetworkManagerFacts } from './network-manager.js';
export type { OvsFacts } from './ovs.js';
export type { FirewalldFacts } from './firewalld.js';
export type { DefaultRoute } from './default-routes.js';
export type { OsRelease } from './os-release.js';
