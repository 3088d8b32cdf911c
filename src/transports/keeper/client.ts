// A run's side of the connection keeper (server.ts): asks it for a host's connection and for exec
// channels on it. A channel comes back as a KeptChannel, which behaves as ssh2's ClientChannel does for
// ssh.ts (data, .stderr, 'exit', 'close', close()), so exec, start, the run lock and the fallback
// worker work unchanged over it. When no keeper answers, the first request starts one (detached: it
// outlives this run) and waits for its socket; if that fails the caller connects directly.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { Duplex, PassThrough } from 'node:stream';
import { TransportError } from '../../errors.js';
import { FRAME, FrameSplitter, type KeeperKey } from './frames.js';

/** The keeper could not be reached or started: connect directly instead. */
export class KeeperUnavailable extends Error {}

const START_WAIT_MS = 3000;

export class KeptChannel extends Duplex {
  readonly stderr = new PassThrough();
  /** The exit status once the keeper sent it (read like ssh-channel.ts's exitStatusOf). */
  hwExit?: number;

  constructor(private readonly sock: Socket) {
    super({ allowHalfOpen: true });
  }

  /** One frame from the keeper, after its `ready`. */
  deliver(type: number, body: Buffer): void {
    if (type === FRAME.stdout) this.push(body);
    else if (type === FRAME.stderr) this.stderr.write(body);
    else if (type === FRAME.exit) {
      this.hwExit = Number((JSON.parse(body.toString('utf8')) as { code: number }).code);
      this.emit('exit', this.hwExit);
    }
  }

  ended(): void {
    if (this.destroyed) return;
    this.push(null);
    this.stderr.end();
    this.destroy();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    if (this.sock.destroyed) return cb();
    this.sock.write(chunk, () => cb());
  }

  override _final(cb: (e?: Error | null) => void): void {
    this.sock.end();
    cb();
  }

  /** Set when this side ended the channel (kill, timeout): its close then says nothing about the connection. */
  closedHere = false;

  /** Ends the command (the keeper closes its channel), as ssh2's close() does. */
  close(): void {
    this.closedHere = true;
    this.sock.destroy();
  }
}

export class KeeperClient {
  private starting?: Promise<void>;

  /** `spawnArgv`: how to start a keeper (node, the CLI script); `persistSec`: its idle lifetime. */
  constructor(readonly socketPath: string, private readonly persistSec: number, private readonly spawnArgv: string[]) {}

  /** The socket, or KeeperUnavailable when nothing listens there. */
  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const sock = connect({ path: this.socketPath, allowHalfOpen: true });
      sock.once('connect', () => { sock.off('error', onError); resolve(sock); });
      const onError = (e: Error) => reject(new KeeperUnavailable(e.message));
      sock.once('error', onError);
    });
  }

  /** A socket to a live keeper; starts one (once per process) when none answers. */
  private async reach(): Promise<Socket> {
    try {
      return await this.open();
    } catch (e) {
      if (!(e instanceof KeeperUnavailable)) throw e;
    }
    this.starting ??= this.start();
    await this.starting;
    return this.open();
  }

  private async start(): Promise<void> {
    const [cmd, ...args] = this.spawnArgv;
    const child = spawn(cmd!, [...args, '__keeper', this.socketPath, String(this.persistSec)], { detached: true, stdio: 'ignore', cwd: '/' });
    child.on('error', () => {});
    child.unref();
    const deadline = Date.now() + START_WAIT_MS;
    for (;;) {
      try {
        (await this.open()).destroy();
        return;
      } catch {
        if (Date.now() > deadline) throw new KeeperUnavailable(`no connection keeper answered on ${this.socketPath} within ${START_WAIT_MS} ms`);
        await new Promise((r) => setTimeout(r, 15));
      }
    }
  }

  /** Sends `request`; resolves at the keeper's `ready` with the socket and its frame reader. */
  private async request(request: object, host: string): Promise<{ sock: Socket; body: Buffer; onFrame: (f: (type: number, body: Buffer) => void) => void }> {
    const sock = await this.reach();
    sock.on('error', () => {});
    sock.write(`${JSON.stringify(request)}\n`);
    const splitter = new FrameSplitter();
    let handler: ((type: number, body: Buffer) => void) | undefined;
    const early: { type: number; body: Buffer }[] = [];
    return new Promise((resolve, reject) => {
      let ready = false;
      sock.on('data', (chunk: Buffer) => {
        for (const f of splitter.push(chunk)) {
          if (!ready) {
            if (f.type === FRAME.ready) {
              ready = true;
              resolve({ sock, body: f.body, onFrame: (h) => { handler = h; for (const e of early.splice(0)) h(e.type, e.body); } });
            } else {
              const why = f.type === FRAME.error ? (JSON.parse(f.body.toString('utf8')) as { message: string }).message : 'unexpected answer';
              reject(new TransportError(why, host));
              sock.destroy();
            }
          } else if (handler) handler(f.type, f.body);
          else early.push(f);
        }
      });
      sock.on('close', () => { if (!ready) reject(new KeeperUnavailable('the connection keeper closed the request')); });
    });
  }

  /** Makes sure a keeper is up (starting one now, while the run loads), without waiting for it. */
  prestart(): void {
    void this.reach().then((s) => s.destroy(), () => undefined);
  }

  /** The kept connection to `key`'s host (made now when the keeper lacks it): its host key. */
  async connect(key: KeeperKey): Promise<{ hostKey?: string }> {
    const { sock, body } = await this.request({ op: 'connect', key }, key.host);
    sock.destroy();
    return JSON.parse(body.toString('utf8')) as { hostKey?: string };
  }

  /** An exec channel on the kept connection. */
  async exec(key: KeeperKey, command: string): Promise<KeptChannel> {
    const { sock, onFrame } = await this.request({ op: 'exec', key, command }, key.host);
    const ch = new KeptChannel(sock);
    onFrame((type, body) => ch.deliver(type, body));
    // The keeper's end of the socket is the channel's end (the socket is half-open by design: our
    // stdin may end before the command's output does, so 'close' alone would wait for our side).
    sock.on('end', () => { ch.ended(); sock.end(); });
    sock.on('close', () => ch.ended());
    return ch;
  }
}
