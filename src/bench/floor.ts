// The floor: open one SSH connection to every host in parallel and run `true`, nothing else.
// Same library (ssh2) and the same netns relay hostwire uses, in a process of its own so its
// node start-up counts like hostwire's. Usage: node floor.js <hosts.json>
// hosts.json: { netns?, keyFile, user, hosts: [{ host, port }] }
import { readFileSync } from 'node:fs';
import ssh2 from 'ssh2';
import { openNetnsRelay } from '../transports/netns-relay.js';

interface FloorSpec {
  netns?: string;
  keyFile: string;
  user: string;
  hosts: { host: string; port: number }[];
}

function runTrue(spec: FloorSpec, key: string, host: string, port: number): Promise<void> {
  const relay = spec.netns ? openNetnsRelay(spec.netns, host, port) : undefined;
  return new Promise<void>((resolve, reject) => {
    const c = new ssh2.Client();
    c.on('ready', () => c.exec('true', (err, ch) => {
      if (err) return reject(err);
      ch.on('close', () => { c.end(); resolve(); });
      ch.resume();
      ch.stderr.resume();
    }));
    c.on('error', reject);
    c.connect({ sock: relay?.sock, host: relay ? undefined : host, port, username: spec.user, privateKey: key, hostVerifier: () => true });
  }).finally(() => relay?.close());
}

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as FloorSpec;
const key = readFileSync(spec.keyFile, 'utf8');
const results = await Promise.allSettled(spec.hosts.map((h) => runTrue(spec, key, h.host, h.port)));
const failed = results.filter((r) => r.status === 'rejected');
if (failed.length) {
  process.stderr.write(`floor: ${failed.length} host(s) failed: ${(failed[0] as PromiseRejectedResult).reason}\n`);
  process.exitCode = 1;
}
