// Stores for subnet allocations: a state file beside the inventory (default) or etcd in flannel's schema.
export * from './types.js';
export * from './decide.js';
export * from './file-store.js';
export * from './etcd-store.js';
export * from './etcdctl.js';
export { withLock } from './lock.js';
