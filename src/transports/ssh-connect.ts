// Opens one authenticated SSH connection (node-ssh on ssh2): key file or default keys, ssh-agent,
// optional password, host key policy, keepalive, connect timeout, and a pre-opened socket (netns relay
// or a ProxyJump channel). Errors name user@host:port and why.
// node-ssh (and with it ssh2) is loaded on the first connect, not with the CLI: ssh2 is the largest
// part of what a run loads (~40 ms of CPU at every start-up), and a run on local hosts or a command
// that contacts no host needs none of it.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Config, NodeSSH } from 'node-ssh';
import type { Client, ClientChannel } from 'ssh2';
import { BadInputError, TransportError } from '../errors.js';
import { createHostKeyVerifier, type HostKeyChecking } from './host-key-policy.js';

export interface SshEndpoint {
  host: string;
  port: number;
  user: string;
}

export interface SshAuthOptions {
  privateKeyFile?: string;
  password?: string;
  knownHostsFile?: string;
  globalKnownHostsFile?: string;
  hostKeyChecking?: HostKeyChecking;
  connectTimeoutMs?: number;
  keepaliveIntervalMs?: number;
  /** Unanswered keepalives before the connection counts as dead (default 3: ~15 s with 5 s probes). */
  keepaliveCountMax?: number;
}

/** One authenticated connection: the ssh2 client, whether it is still up, and its end. */
export class SshSession {
  private live = true;

  readonly client: Client;

  constructor(private readonly ssh: NodeSSH) {
    this.client = ssh.connection!;
    const client = this.client;
    const down = () => { this.live = false; };
    client.on('end', down);
    client.on('close', down);
    // node-ssh drops its error listener once ready: a later socket error must not crash the run.
    client.on('error', () => {});
  }

  get connected(): boolean {
    return this.live;
  }

  /** A channel to dstIP:dstPort opened by the server (ProxyJump, like ssh -J). */
  forwardOut(srcIP: string, srcPort: number, dstIP: string, dstPort: number): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      this.client.forwardOut(srcIP, srcPort, dstIP, dstPort, (err, ch) => (err ? reject(err) : resolve(ch)));
    });
  }

  dispose(): void {
    if (!this.live) return;
    this.live = false;
    // Our side is done once ssh2 has sent its disconnect and FIN: the socket no longer keeps the
    // process alive while sshd ends the session (PAM, logind) and closes its side (~20-50 ms a run).
    const sock = (this.client as unknown as { _sock?: { unref?: () => void } })._sock;
    this.ssh.dispose();
    sock?.unref?.();
  }
}

let nodeSshModule: Promise<typeof import('node-ssh')> | undefined;
const loadNodeSsh = () => (nodeSshModule ??= import('node-ssh'));

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

/** The private key text, or undefined to rely on the agent / password. */
export function loadPrivateKey(file: string | undefined): string | undefined {
  const candidates = file ? [file] : DEFAULT_KEYS.map((k) => join(homedir(), '.ssh', k)).filter((f) => existsSync(f));
  const chosen = candidates[0];
  if (!chosen) return undefined;
  try {
    return readFileSync(chosen, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new BadInputError(`cannot read SSH private key file ${chosen}: ${why}`, { file: chosen }, e);
  }
}

export function describeEndpoint(ep: SshEndpoint): string {
  return `${ep.user}@${ep.host}:${ep.port}`;
}

function reasonOf(e: unknown): string {
  const err = e as Error & { code?: string; level?: string };
  if (err.code === 'ECONNREFUSED') return 'connection refused';
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return 'host name does not resolve';
  if (err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH') return 'no route to host';
  if (err.level === 'client-timeout' || /timed out/i.test(err.message)) return 'timed out';
  if (err.level === 'client-authentication') return 'authentication failed (key, agent and password were all refused)';
  if (/privateKey/i.test(err.message)) return 'the private key could not be parsed (encrypted keys need the ssh-agent)';
  return err.message;
}

/** Connect and authenticate; `sock` is an already-open stream to the server (netns / jump). */
export async function openSsh(
  ep: SshEndpoint, auth: SshAuthOptions, sock?: Duplex, explain?: () => Promise<string | undefined>,
  onHostKey?: (key: Buffer) => void,
): Promise<SshSession> {
  const verifier = createHostKeyVerifier({
    host: ep.host, port: ep.port, policy: auth.hostKeyChecking,
    knownHostsFile: auth.knownHostsFile, globalKnownHostsFile: auth.globalKnownHostsFile,
  });
  const privateKey = loadPrivateKey(auth.privateKeyFile);
  const config: Config = {
    host: sock ? undefined : ep.host,
    port: ep.port,
    username: ep.user,
    sock,
    privateKey,
    password: auth.password,
    agent: process.env.SSH_AUTH_SOCK || undefined,
    readyTimeout: auth.connectTimeoutMs ?? 10_000,
    keepaliveInterval: auth.keepaliveIntervalMs ?? 5_000,
    keepaliveCountMax: auth.keepaliveCountMax ?? 3,
    hostVerifier: (key: Buffer) => {
      onHostKey?.(key);
      return verifier.verify(key);
    },
    algorithms: verifier.preferredAlgorithms.length
      ? { serverHostKey: verifier.preferredAlgorithms as NonNullable<Config['algorithms']>['serverHostKey'] }
      : undefined,
  };
  const { NodeSSH } = await loadNodeSsh();
  const ssh = new NodeSSH();
  try {
    await ssh.connect(config);
  } catch (e) {
    ssh.dispose();
    const why = verifier.rejection || (await explain?.()) || reasonOf(e);
    throw new TransportError(`cannot connect to ${describeEndpoint(ep)}: ${why}`, ep.host, e);
  }
  return new SshSession(ssh);
}
