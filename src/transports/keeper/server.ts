// The connection keeper: hostwire's ControlPersist. A small background process (`hostwire __keeper SOCKET
// SECONDS`, started by the first run that wants it) holds one SSH connection per host and opens exec
// channels on it for later runs, which reach it through a unix socket in a private directory
// (paths.ts). A run through it skips the connect, key exchange, authentication and sshd's PAM session
// (~0.3 s a host measured on lab hosts). It ends, closing its connections, once nobody used it for
// SECONDS, on SIGTERM, or when its socket is taken over.
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { ClientChannel } from 'ssh2';
import { exitStatusOf } from '../ssh-channel.js';
import { SshTransport } from '../ssh.js';
import { FRAME, frame, keyId, MAX_REQUEST_BYTES, type KeeperRequest } from './frames.js';
import { keeperDir, pidFileOf, trustedKeeperDir } from './paths.js';

const REQUEST_TIMEOUT_MS = 10_000;
/** A connection unused this long is checked before a run gets it (see SshTransport.answers). */
const CHECK_AFTER_IDLE_MS = 5_000;
const CHECK_TIMEOUT_MS = 3_000;

/** The request line and what came after it (the start of the command's stdin). */
function readRequest(sock: Socket): Promise<{ req: KeeperRequest; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => reject(new Error('no request in time')), REQUEST_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const nl = buf.indexOf(10);
      if (nl < 0 && buf.length < MAX_REQUEST_BYTES) return;
      sock.off('data', onData);
      sock.pause();
      clearTimeout(timer);
      try {
        if (nl < 0) throw new Error('request too long');
        const req = JSON.parse(buf.subarray(0, nl).toString('utf8')) as KeeperRequest;
        const k = req?.key;
        if (!k || typeof k.host !== 'string' || typeof k.port !== 'number' || typeof k.user !== 'string') throw new Error('bad request');
        if (req.op !== 'connect' && !(req.op === 'exec' && typeof req.command === 'string')) throw new Error('bad request');
        resolve({ req, rest: buf.subarray(nl + 1) });
      } catch (e) {
        reject(e);
      }
    };
    sock.on('data', onData);
    // A probe (a client checking that a keeper answers) closes without a request.
    sock.once('end', () => { clearTimeout(timer); reject(new Error('closed without a request')); });
  });
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** When each kept connection last served a request. */
const lastUsed = new WeakMap<SshTransport, number>();

async function serve(sock: Socket, transports: Map<string, SshTransport>): Promise<void> {
  const { req, rest } = await readRequest(sock);
  const id = keyId(req.key);
  let t = transports.get(id);
  if (!t) {
    t = new SshTransport({ ...req.key, name: req.key.host });
    transports.set(id, t);
  } else if (req.op === 'connect' && Date.now() - (lastUsed.get(t) ?? 0) > CHECK_AFTER_IDLE_MS) {
    await t.answers(CHECK_TIMEOUT_MS);
  }
  lastUsed.set(t, Date.now());
  // An answer that ends the request: the socket reads again (it was paused for the exec's stdin), or the
  // client's close would never be seen and the keeper would count it active for ever.
  const answer = (type: number, body: string) => { sock.resume(); sock.end(frame(type, body)); };
  const fail = (e: unknown) => answer(FRAME.error, JSON.stringify({ message: message(e) }));
  try {
    await t.connect();
  } catch (e) {
    transports.delete(id);
    return void fail(e);
  }
  if (req.op === 'connect') return void answer(FRAME.ready, JSON.stringify({ hostKey: t.hostKey }));
  let run: Awaited<ReturnType<SshTransport['start']>>;
  try {
    run = await t.start(req.command);
  } catch (e) {
    return void fail(e);
  }
  const ch = run.stdout as ClientChannel;
  sock.write(frame(FRAME.ready, '{}'));
  ch.on('data', (d: Buffer) => sock.write(frame(FRAME.stdout, d)));
  ch.stderr.on('data', (d: Buffer) => sock.write(frame(FRAME.stderr, d)));
  const toHost = (d: Buffer) => { try { ch.write(d); } catch { /* the command ended */ } };
  if (rest.length) toHost(rest);
  sock.on('data', toHost);
  sock.on('end', () => { try { ch.end(); } catch { /* ended */ } });
  // The client went away (its run ended or was interrupted): so does its command, as with a closed channel.
  sock.on('close', () => run.kill());
  sock.resume();
  await run.done;
  const code = exitStatusOf(ch);
  // No exit status: the connection died under the command; the client sees a close without one.
  if (code !== undefined) sock.write(frame(FRAME.exit, JSON.stringify({ code })));
  sock.end();
}

/** Listens on `socketPath`; a keeper already answering there wins (this one exits). */
function listen(server: Server, socketPath: string): Promise<boolean> {
  const tryListen = () => new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    server.once('error', resolve);
    server.listen(socketPath, () => { server.off('error', resolve); resolve(undefined); });
  });
  const alive = () => new Promise<boolean>((resolve) => {
    const c = connect(socketPath, () => { c.destroy(); resolve(true); });
    c.on('error', () => resolve(false));
  });
  return (async () => {
    const err = await tryListen();
    if (!err) return true;
    if (err.code !== 'EADDRINUSE' || (await alive())) return false;
    unlinkSync(socketPath);
    return !(await tryListen());
  })();
}

export async function runKeeper(socketPath: string, persistSec: number): Promise<void> {
  // Only our uid may use the socket (its directory is 0700 already).
  process.umask(0o077);
  const transports = new Map<string, SshTransport>();
  let active = 0;
  let idle: NodeJS.Timeout | undefined;
  const server = createServer({ allowHalfOpen: true });
  const shutdown = async () => {
    server.close();
    for (const f of [socketPath, pidFileOf(socketPath)]) {
      try { unlinkSync(f); } catch { /* gone already */ }
    }
    await Promise.all([...transports.values()].map((t) => t.close()));
    process.exit(0);
  };
  const arm = () => {
    clearTimeout(idle);
    if (active === 0) idle = setTimeout(() => void shutdown(), persistSec * 1000);
  };
  server.on('connection', (sock) => {
    active++;
    clearTimeout(idle);
    sock.on('error', () => {});
    sock.once('close', () => { active--; arm(); });
    serve(sock, transports).catch(() => sock.destroy());
  });
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGHUP', () => {});
  if (!(await listen(server, socketPath))) process.exit(0);
  // Who holds the namespace's connections: `lab down` ends the keeper of a lab namespace by this pid.
  writeFileSync(pidFileOf(socketPath), `${process.pid}\n`, { mode: 0o600 });
  arm();
}

/** `__keeper SOCKET SECONDS` as a run started it; anything else ends at once (nobody types this). */
export async function runKeeperFromArgs(args: string[]): Promise<void> {
  const [socketPath, seconds] = args;
  const persist = Number(seconds);
  const dir = keeperDir();
  if (!socketPath || path.dirname(socketPath) !== dir || !trustedKeeperDir(dir) || !Number.isFinite(persist) || persist <= 0) {
    process.stderr.write('hostwire: __keeper is started by hostwire runs (ssh_args ControlPersist), not by hand\n');
    process.exitCode = 2;
    return;
  }
  await runKeeper(socketPath, persist);
}
