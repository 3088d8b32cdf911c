// Opens a TCP stream to host:port from inside a network namespace. Node cannot setns(2), so a
// child `ip netns exec <ns> node -e <relay>` connects there and pipes its stdin/stdout to the
// socket; its stdio becomes the Duplex that ssh2 uses as `sock`. One relay per connection.
import { spawn, type ChildProcess } from 'node:child_process';
import { Duplex } from 'node:stream';

const RELAY = [
  "const s=require('net').connect(+process.argv[2],process.argv[1]);",
  "s.on('connect',()=>{process.stdin.pipe(s);s.pipe(process.stdout);});",
  "s.on('error',e=>{process.stderr.write(e.message);process.exit(1);});",
  "s.on('close',()=>process.exit(0));process.stdin.on('end',()=>s.end());",
].join('');

export interface NetnsRelay {
  sock: Duplex;
  child: ChildProcess;
  /** Last words of the relay (its connect error), for error messages. */
  stderr(): string;
  close(): void;
}

export function openNetnsRelay(netns: string, host: string, port: number): NetnsRelay {
  if (!/^[A-Za-z0-9_.-]+$/.test(netns)) throw new Error(`invalid network namespace name: ${JSON.stringify(netns)}`);
  const child = spawn('ip', ['netns', 'exec', netns, process.execPath, '-e', RELAY, host, String(port)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-500); });
  const sock = Duplex.from({ readable: child.stdout!, writable: child.stdin! });
  // The relay may die before ssh2 reads; surface that as a socket close, not an unhandled error.
  child.on('error', (e) => { err ||= e.message; sock.destroy(); });
  sock.on('error', () => {});
  return {
    sock,
    child,
    stderr: () => err.trim(),
    close() {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try { process.kill(child.pid, 'SIGTERM'); } catch { /* already gone */ }
      }
      sock.destroy();
    },
  };
}
