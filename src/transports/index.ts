// Public API of the transports: how hostwire reaches a host.
export type * from './transport.js';
export { SshTransport, type SshTransportOptions } from './ssh.js';
export { LocalTransport } from './local.js';
export { createTransport, type ConnectionSettings, type CreateTransportOptions } from './create.js';
export { acquireHostLock, HostLockedError, LockInterruptedError, type HostLock, type HostLockOptions } from './lock.js';
export { isStreamingTransport, type RunningCommand, type StreamingTransport } from './streaming.js';
export { shellQuote, shellJoin, wrapBecome, withEnvAndCwd, maskSecrets, type WrappedCommand } from './quote.js';
export type { HostKeyChecking } from './host-key-policy.js';
export {
  parseKnownHosts, checkHostKey, hostKeyName, hashHostName, formatKnownHostLine, type KnownHostEntry, type HostKeyStatus,
} from './known-hosts.js';
