// One Python worker per host (and become user, and interpreter) for the run: host/worker.py, started
// over the host's existing connection, fed length-prefixed JSON requests on stdin. It makes sure the
// run's payload is cached on the host (uploading it only when the host lacks that content hash) and
// runs each module call as name + JSON arguments. It ends with the connection (the run closes its
// transports; a dropped connection closes its stdin).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HostwireError, TransportError } from '../errors.js';
import { shellQuote, wrapBecome } from '../transports/quote.js';
import { isStreamingTransport, type RunningCommand } from '../transports/streaming.js';
import type { BecomeOptions, Transport } from '../transports/transport.js';
import { trace } from '../transports/trace.js';
import { encodeFrame, FrameReader } from './frames.js';
import type { Payload } from './payload-types.js';
import type { WorkerOutput } from './result.js';

const WORKER_FILE = fileURLToPath(new URL('../../../src/fallback/host/worker.py', import.meta.url));
let workerCode: string | undefined;

/** What the fallback sent, for tests and the bench: a second run of the same content uploads nothing. */
export const fallbackStats = { workersStarted: 0, uploads: 0, uploadBytes: 0, calls: 0, payloadChecks: 0 };

type Reply = Record<string, unknown>;

export class FallbackWorker {
  private readonly reader = new FrameReader();
  private readonly waiting: { resolve(r: Reply): void; reject(e: Error): void }[] = [];
  private readonly present = new Map<string, Promise<void>>();
  private ended?: Error;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly host: string;

  private constructor(private readonly transport: Transport, private readonly run: RunningCommand) {
    const host = transport.name;
    this.host = host;
    run.stdout.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = this.reader.push(chunk);
      } catch (e) {
        this.fail(e as Error);
        run.kill();
        return;
      }
      for (const m of messages) this.waiting.shift()?.resolve(m as Reply);
    });
    void run.done.then((r) => this.fail(new HostwireError('command-failed', `the fallback worker on ${host} ended (exit ${r.code})${r.code === 127 ? ': no such Python interpreter there (set ansible_python_interpreter, or install python3)' : ''}`, { host })));
  }

  /** Starts the worker; resolves once it said hello (so a missing Python is an error here). */
  /** `preload`: a payload hash; when the host has it, the worker imports its basic before saying hello. */
  static async start(transport: Transport, python: string, become?: BecomeOptions, preload?: string): Promise<FallbackWorker> {
    if (!isStreamingTransport(transport)) throw new TransportError(`transport for ${transport.name} cannot keep a fallback worker`, transport.name);
    workerCode ??= readFileSync(WORKER_FILE, 'utf8');
    const t0 = performance.now();
    const hash = preload && /^[0-9a-f]{64}$/.test(preload) ? ` ${preload}` : '';
    const wrapped = wrapBecome(`exec ${python === 'python3' ? python : shellQuote(python)} -c ${shellQuote(workerCode)}${hash}`, become);
    const run = await transport.start(wrapped.command);
    fallbackStats.workersStarted++;
    const w = new FallbackWorker(transport, run);
    if (wrapped.stdinPrefix) run.stdin.write(wrapped.stdinPrefix);
    const hello = await w.next();
    trace(transport.name, 'fallback worker started', t0);
    if (hello.op !== 'hello') throw new HostwireError('command-failed', `the fallback worker on ${transport.name} did not start: ${JSON.stringify(hello).slice(0, 300)}`, { host: transport.name });
    if (!/^3\./.test(String(hello.python))) {
      w.close();
      throw new HostwireError('command-failed', `${python} on ${transport.name} is Python ${String(hello.python)}; hostwire's fallback needs Python 3`, { host: transport.name });
    }
    // The worker looked for the payload it was started with: when there, no "have" round trip is needed.
    if (hash && hello.present === true) w.present.set(preload!, Promise.resolve());
    return w;
  }

  private next(): Promise<Reply> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private fail(e: Error): void {
    this.ended ??= e;
    for (const w of this.waiting.splice(0)) w.reject(this.ended);
  }

  /** One request, one reply; requests go one at a time. */
  request(message: Reply): Promise<Reply> {
    const p = this.queue.then(async () => {
      if (this.ended) throw this.ended;
      const reply = this.next();
      const frame = encodeFrame(message);
      this.transport.stats.bytesSent += frame.length;
      this.run.stdin.write(frame);
      const r = await reply;
      if (r.ok !== true) throw new HostwireError('command-failed', `fallback worker on ${this.host}: ${String(r.error ?? JSON.stringify(r))}`, { host: this.host });
      return r;
    });
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** The payload is on the host after this: asked at most once per run (not at all when the worker's
   * hello said it has the payload it was started with), uploaded only when missing. */
  ensurePayload(payload: Payload): Promise<void> {
    let p = this.present.get(payload.hash);
    if (!p) {
      p = (async () => {
        const t0 = performance.now();
        fallbackStats.payloadChecks++;
        const have = await this.request({ op: 'have', hash: payload.hash });
        trace(this.host, `fallback payload ${have.present === true ? 'present' : 'missing'}`, t0);
        if (have.present === true) return;
        fallbackStats.uploads++;
        fallbackStats.uploadBytes += payload.zip.length;
        const t1 = performance.now();
        await this.request({ op: 'put', hash: payload.hash, zip: payload.zip.toString('base64') });
        trace(this.host, `fallback payload uploaded (${payload.zip.length} bytes)`, t1);
      })();
      this.present.set(payload.hash, p);
      p.catch(() => this.present.delete(payload.hash));
    }
    return p;
  }

  async call(hash: string, fqn: string, args: Record<string, unknown>, env: Record<string, string>): Promise<WorkerOutput> {
    fallbackStats.calls++;
    const t0 = performance.now();
    const r = await this.request({ op: 'run', hash, fqn, args, env });
    trace(this.host, `fallback ${fqn}`, t0);
    return { rc: Number(r.rc), stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
  }

  /** Called once the worker has ended (the run closed the connection, or it dropped). */
  onEnd(fn: () => void): void {
    void this.run.done.then(fn);
  }

  close(): void {
    this.run.stdin.end();
    this.run.kill();
  }
}

/** The run's workers by transport (a transport is one host's connection for the run). */
const workers = new WeakMap<Transport, Map<string, Promise<FallbackWorker>>>();

/** The worker of this host for this interpreter and become user, started on first use. */
export function workerFor(transport: Transport, python: string, become?: BecomeOptions, preload?: string): Promise<FallbackWorker> {
  let byKey = workers.get(transport);
  if (!byKey) workers.set(transport, (byKey = new Map()));
  const key = `${python}\0${become?.enabled ? become.user ?? 'root' : ''}`;
  let w = byKey.get(key);
  if (!w) {
    w = FallbackWorker.start(transport, python, become, preload);
    byKey.set(key, w);
    const forget = () => byKey!.delete(key);
    w.then((worker) => worker.onEnd(forget), forget);
  }
  return w;
}
