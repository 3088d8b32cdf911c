// SSH transport: ONE connection per host for the whole run (ssh2), at most
// `maxChannels` concurrent channels (OpenSSH MaxSessions), a transparent reconnect when the
// server dropped the connection between execs, optional netns relay (none when this process already
// runs in that namespace) or ProxyJump socket.
// reconnect() replaces a connection that hangs (an IP moved under it, see ovs_gateway); keepalive
// (5 s x 3) notices a dead one, and a channel that cannot be opened in time counts as dead.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Duplex } from 'node:stream';
import type { ClientChannel } from 'ssh2';
import { CommandError, TransportError } from '../errors.js';
import { insideNetns, openNetnsRelay, type NetnsRelay } from './netns-relay.js';
import { buildHostCommand } from './host-command.js';
import { maskSecrets } from './quote.js';
import { Semaphore } from './semaphore.js';
import { openExecChannel, runOnChannel } from './ssh-channel.js';
import { exitStatusOf } from './ssh-channel.js';
import { describeEndpoint, openSsh, type SshAuthOptions, type SshEndpoint, type SshSession } from './ssh-connect.js';
import type { RunningCommand, StreamingTransport } from './streaming.js';
import type { ExecOptions, ExecResult, TransportStats, WriteFileOptions } from './transport.js';
import { buildWriteScript } from './write-script.js';
import { exitCodeOf } from './exit-code.js';
import { trace, TRACE, traceCommand } from './trace.js';
import { KeeperUnavailable, type KeeperClient, type KeptChannel } from './keeper/client.js';
import type { KeeperKey } from './keeper/frames.js';

export interface SshTransportOptions extends SshEndpoint, SshAuthOptions {
  /** Inventory name of the host. */
  name: string;
  /** Reach the host through this bastion (like ssh -J). */
  proxyJump?: SshEndpoint;
  /** Open the TCP connection inside this network namespace (/run/netns/<name>): through the relay
   * process, or directly when this process already runs there. */
  netns?: string;
  /** Concurrent channels per connection; OpenSSH's MaxSessions defaults to 10. */
  maxChannels?: number;
  /** Reach the host through this connection keeper (ssh_args' ControlPersist) while it answers. */
  keeper?: KeeperClient;
}

/**
 * How long sshd may take to answer a channel request: 15 s, or the host's connect timeout (ansible_timeout) when
 * longer - an emulated lab VM at load 40+ (ansible_timeout 60) took over 15 s and the run failed on a live host.
 */
export const channelOpenTimeoutMs = (connectTimeoutMs?: number) => Math.max(15_000, connectTimeoutMs ?? 0);
/** Set while a transport's reconnect listeners run (see connect()). */
const inListener = new AsyncLocalStorage<SshTransport>();

export class SshTransport implements StreamingTransport {
  readonly name: string;
  readonly stats: TransportStats = { execs: 0, bytesSent: 0, connects: 0 };
  private ssh?: SshSession;
  private jump?: SshSession;
  private relay?: NetnsRelay;
  private opening?: Promise<void>;
  private readonly channels: Semaphore;
  private readonly reconnectListeners: (() => Promise<void> | void)[] = [];
  /** Connected through the keeper; `keeperOff` once it failed us or after reconnect(): direct from then on. */
  private kept = false;
  private keeperOff = false;
  private readonly keptChannels = new Set<KeptChannel>();

  constructor(readonly options: SshTransportOptions) {
    this.name = options.name;
    this.channels = new Semaphore(options.maxChannels ?? 10);
  }

  get endpoint(): string {
    return describeEndpoint(this.options);
  }

  /** The host key the server presented (base64), once connected: two names, one machine? */
  hostKey?: string;

  /** Where this transport connects to: two inventory names with the same key reach one sshd. */
  get endpointKey(): string {
    const o = this.options;
    const jump = o.proxyJump ? describeEndpoint(o.proxyJump) : '';
    return `${o.netns ?? ''}|${jump}|${o.host.toLowerCase()}:${o.port}`;
  }

  get connected(): boolean {
    return this.kept || !!this.ssh?.connected;
  }

  /** What the keeper keys its connection by: everything but the password (never kept) and our name. */
  private keeperKey(): KeeperKey {
    const { name: _name, password: _password, keeper: _keeper, ...key } = this.options;
    return key;
  }

  /** The keeper's connection, or false when no keeper is to be used or none could be reached. */
  private async openKept(): Promise<boolean> {
    const keeper = this.options.keeper;
    if (!keeper || this.keeperOff || this.options.password) return false;
    try {
      const r = await keeper.connect(this.keeperKey());
      if (r.hostKey) this.hostKey = r.hostKey;
      this.kept = true;
      this.stats.connects++;
      return true;
    } catch (e) {
      if (!(e instanceof KeeperUnavailable)) throw e;
      this.keeperOff = true;
      return false;
    }
  }

  /** An exec channel from the keeper; its close without an exit status means the kept connection is gone. */
  private async keptChannel(command: string): Promise<ClientChannel> {
    const ch = await this.options.keeper!.exec(this.keeperKey(), command);
    this.keptChannels.add(ch);
    ch.once('close', () => {
      this.keptChannels.delete(ch);
      if (ch.hwExit === undefined && !ch.closedHere) this.kept = false;
    });
    return ch as unknown as ClientChannel;
  }

  async connect(): Promise<void> {
    if (this.connected) return;
    // A reconnect listener (the run lock's re-take) whose new connection died too opens the next one itself:
    // waiting for `opening` would wait for that very listener - a promise cycle with nothing left to run, and
    // the process ended mid-task with exit code 13 (seen while an uplink move rolled back on a loaded VM).
    if (inListener.getStore() === this) return this.openPlain();
    const t0 = performance.now();
    this.opening ??= this.open().finally(() => {
      this.opening = undefined;
      trace(this.name, 'connect', t0);
    });
    await this.opening;
  }

  private async openOnce(): Promise<void> {
    this.dispose();
    if (await this.openKept()) return;
    const o = this.options;
    let sock: Duplex | undefined;
    const first = o.proxyJump ?? o;
    if (o.netns && !insideNetns(o.netns)) {
      this.relay = openNetnsRelay(o.netns, first.host, first.port);
      sock = this.relay.sock;
    }
    const explain = async () => {
      const why = await this.relay?.reason(500);
      return why ? `${why} (in netns ${o.netns})` : undefined;
    };
    if (o.proxyJump) {
      this.jump = await openSsh(o.proxyJump, o, sock, explain);
      try {
        sock = await this.jump.forwardOut('127.0.0.1', 0, o.host, o.port);
      } catch (e) {
        throw new TransportError(
          `cannot reach ${o.host}:${o.port} through jump host ${describeEndpoint(o.proxyJump)}: ${(e as Error).message}`, o.host, e);
      }
    }
    this.ssh = await openSsh(o, o, sock, o.proxyJump ? undefined : explain, (key) => { this.hostKey = key.toString('base64'); });
    this.stats.connects++;
  }

  private async open(): Promise<void> {
    const again = this.stats.connects > 0;
    await this.openPlain();
    // State tied to the old connection (the run lock's holder) died with it: let owners restore it.
    if (again) await inListener.run(this, async () => { for (const l of this.reconnectListeners) await l(); });
  }

  private async openPlain(): Promise<void> {
    try {
      await this.openOnce();
    } catch (e) {
      this.dispose();
      throw e;
    }
  }

  /**
   * Whether the connection still answers: a channel that runs `exit 0` and reports it within `timeoutMs`. The keeper
   * asks before it lends a connection nobody used for a while (a host rebooted meanwhile leaves one that
   * looks open until keepalive gives up, ~15 s); a dead one is dropped, and the next connect opens anew.
   */
  async answers(timeoutMs: number): Promise<boolean> {
    if (!this.ssh?.connected) return false;
    try {
      const ch = await openExecChannel(this.ssh.client, 'exit 0', timeoutMs);
      // runOnChannel resolves on its timeout too (code TIMEOUT_EXIT_CODE): only a clean `exit 0` is alive.
      if ((await runOnChannel(ch, undefined, timeoutMs)).code === 0) return true;
    } catch {
      // dropped below
    }
    this.dispose();
    return false;
  }

  /** Called after every re-opened connection (not the first), e.g. to take the run lock again. */
  onReconnect(listener: () => Promise<void> | void): void {
    this.reconnectListeners.push(listener);
  }

  /**
   * Drop the current connection (it may hang without erroring, e.g. after the host's IP moved)
   * and open a fresh one. Commands still running on the old one end with a TransportError.
   */
  async reconnect(): Promise<void> {
    await this.opening?.catch(() => {});
    // A hanging connection (an IP moved under it) hangs in the keeper too: this run goes direct now.
    this.keeperOff = true;
    this.dispose();
    await this.connect();
  }

  /**
   * Open an exec channel. The command has not started when this fails, so retrying is safe:
   * reconnect once if the connection turned out dead, and retry briefly when sshd still counts
   * just-closed sessions against MaxSessions ("open failed").
   */
  private async channel(command: string) {
    let reconnected = false;
    for (let attempt = 0; ; attempt++) {
      await this.connect();
      try {
        if (this.kept) return await this.keptChannel(command);
        return await openExecChannel(this.ssh!.client, command, channelOpenTimeoutMs(this.options.connectTimeoutMs));
      } catch (e) {
        // The keeper went away: the next round connects directly (and takes the run lock again).
        if (e instanceof KeeperUnavailable && !reconnected) { this.kept = false; this.keeperOff = true; reconnected = true; continue; }
        // A channel that cannot even be opened in time means the connection is dead but not closed yet.
        if (!reconnected && (e as Error & { code?: string }).code === 'ETIMEDOUT') this.dispose();
        if (!reconnected && !this.connected) { reconnected = true; continue; }
        if (attempt < 20 && this.connected && /open failed/i.test((e as Error).message)) {
          await new Promise((r) => setTimeout(r, 10 * (attempt + 1)));
          continue;
        }
        throw new TransportError(`${this.endpoint}: cannot open a session channel: ${(e as Error).message}`, this.options.host, e);
      }
    }
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const { command: line, stdin } = buildHostCommand(command, options);
    this.stats.execs++;
    this.stats.bytesSent += Buffer.byteLength(line) + (stdin?.length ?? 0);
    const t0 = TRACE ? performance.now() : 0;
    return this.channels.run(async () => {
      const t1 = TRACE ? performance.now() : 0;
      const ch = await this.channel(line);
      // The host's timeout(1) does the killing (sshd ignores signal requests); ours is a backstop.
      const r = await runOnChannel(ch, stdin, options.timeoutMs && options.timeoutMs + 5000);
      const secrets = [options.become?.password];
      if (!r.exited) {
        throw new TransportError(`${this.endpoint}: connection lost while running: ${command}`, this.options.host);
      }
      if (TRACE) trace(this.name, `exec (queued ${(t1 - t0).toFixed(0)} ms) ${traceCommand(command)}`, t0);
      return { stdout: maskSecrets(r.stdout, secrets), stderr: maskSecrets(r.stderr, secrets), code: r.code };
    });
  }

  async writeFile(path: string, content: string | Buffer, options: WriteFileOptions = {}): Promise<void> {
    const r = await this.exec(buildWriteScript(path, content, options), { stdin: content, become: options.become });
    if (r.code !== 0) {
      throw new CommandError({ command: `write ${path}`, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: this.name });
    }
  }

  async start(command: string): Promise<RunningCommand> {
    const release = await this.channels.acquire();
    try {
      this.stats.execs++;
      this.stats.bytesSent += Buffer.byteLength(command);
      const ch = await this.channel(command);
      ch.stderr.resume();
      let code: number | undefined;
      ch.on('exit', (c: number | null, sig?: string) => { code = exitCodeOf(c, sig); });
      ch.on('error', () => {});
      const done = new Promise<ExecResult>((resolve) => ch.on('close', () => {
        release();
        resolve({ stdout: '', stderr: '', code: code ?? exitStatusOf(ch) ?? 255 });
      }));
      return { stdout: ch, stdin: ch, done, kill: () => ch.close() };
    } catch (e) {
      release();
      throw e;
    }
  }

  private dispose(): void {
    for (const ch of this.keptChannels) ch.close();
    this.keptChannels.clear();
    this.kept = false;
    this.ssh?.dispose();
    this.jump?.dispose();
    this.relay?.close();
    this.ssh = this.jump = this.relay = undefined;
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => {});
    this.dispose();
  }
}
