// Chooses the transport for a host from its connection settings (inventory vars, CLI flags).
import { BadInputError } from '../errors.js';
import type { HostKeyChecking } from './host-key-policy.js';
import { LocalTransport } from './local.js';
import { SshTransport } from './ssh.js';
import type { StreamingTransport } from './streaming.js';
import type { KeeperClient } from './keeper/client.js';

export interface ConnectionSettings {
  host: string;
  port?: number;
  user?: string;
  privateKeyFile?: string;
  connection?: 'ssh' | 'local';
  proxyJump?: { host: string; port?: number; user?: string };
  knownHostsFile?: string;
  hostKeyChecking?: HostKeyChecking;
  netns?: string;
  connectTimeoutMs?: number;
  password?: string;
}

export interface CreateTransportOptions {
  /** Overrides settings.hostKeyChecking (the --host-key-checking flag). */
  hostKeyChecking?: HostKeyChecking;
  keepaliveIntervalMs?: number;
  maxChannels?: number;
  /** The run's connection keeper (not used for password logins: a password is never kept). */
  keeper?: KeeperClient;
}

const POLICIES = ['strict', 'accept-new', 'off'];

export function createTransport(name: string, settings: ConnectionSettings, options: CreateTransportOptions = {}): StreamingTransport {
  const kind = settings.connection ?? 'ssh';
  if (kind === 'local') return new LocalTransport(name);
  if (kind !== 'ssh') throw new BadInputError(`host ${name}: connection must be 'ssh' or 'local', got ${JSON.stringify(kind)}`);
  const hostKeyChecking = options.hostKeyChecking ?? settings.hostKeyChecking;
  if (hostKeyChecking && !POLICIES.includes(hostKeyChecking)) {
    throw new BadInputError(`host ${name}: host key checking must be one of ${POLICIES.join(', ')}, got ${JSON.stringify(hostKeyChecking)}`);
  }
  const user = settings.user ?? process.env.USER ?? 'root';
  const j = settings.proxyJump;
  return new SshTransport({
    name,
    host: settings.host,
    port: settings.port ?? 22,
    user,
    privateKeyFile: settings.privateKeyFile,
    password: settings.password,
    knownHostsFile: settings.knownHostsFile,
    hostKeyChecking,
    netns: settings.netns,
    connectTimeoutMs: settings.connectTimeoutMs,
    keepaliveIntervalMs: options.keepaliveIntervalMs,
    maxChannels: options.maxChannels,
    keeper: settings.password ? undefined : options.keeper,
    proxyJump: j ? { host: j.host, port: j.port ?? 22, user: j.user ?? user } : undefined,
  });
}
