// The subnet domain with no I/O: CIDR math, the two allocators, VNIDs and MTU. The stores that keep
// the allocations are in ./store/.
export * from './cidr.js';
export * from './errors.js';
export * from './flannel.js';
export * from './openshift.js';
export * from './pool.js';
export * from './vnid.js';
export * from './mtu.js';
export * from './plan.js';
export * from './inventory-settings.js';
