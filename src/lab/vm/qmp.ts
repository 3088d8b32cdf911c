// The VM's QMP socket (qemu's machine protocol, one JSON object per line): cutting a NIC's cable. The guest
// sees carrier loss, as when a switch port dies; taking the lab-side tap down would not (virtio keeps carrier).
import { connect } from 'node:net';
import type { HostState } from '../state.js';

export const qmpSocket = (host: HostState): string => `${host.dir}/qmp.sock`;

/** Runs QMP commands in order; rejects on a QMP error or after `timeoutMs`. */
export function qmpCommands(socket: string, commands: { execute: string; arguments?: Record<string, unknown> }[], timeoutMs = 15_000): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const conn = connect(socket);
    const results: unknown[] = [];
    let buffer = '';
    let greeted = false;
    const queue = [{ execute: 'qmp_capabilities' }, ...commands];
    const fail = (e: Error): void => { clearTimeout(timer); conn.destroy(); reject(e); };
    const timer = setTimeout(() => fail(new Error(`QMP ${socket}: no answer after ${timeoutMs / 1000} s`)), timeoutMs);
    const next = (): void => {
      const c = queue.shift();
      if (!c) { clearTimeout(timer); conn.end(); resolve(results.slice(1)); return; }
      conn.write(`${JSON.stringify(c)}\n`);
    };
    conn.on('error', (e) => fail(new Error(`QMP ${socket}: ${e.message}`)));
    conn.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        let msg: { QMP?: unknown; return?: unknown; error?: { desc?: string }; event?: string };
        try { msg = JSON.parse(line) as typeof msg; } catch { return fail(new Error(`QMP ${socket}: not JSON: ${line.slice(0, 200)}`)); }
        if (msg.event) continue; // asynchronous events interleave with answers
        if (msg.QMP && !greeted) { greeted = true; next(); continue; }
        if (msg.error) return fail(new Error(`QMP ${socket}: ${msg.error.desc ?? JSON.stringify(msg.error)}`));
        results.push(msg.return);
        next();
      }
    });
  });
}

/** Plugs (`up`) or unplugs a VM NIC's cable by its qemu netdev id (`net0` is eth0, `net1` eth1...). */
export async function setVmLink(host: HostState, netdevId: string, up: boolean): Promise<void> {
  await qmpCommands(qmpSocket(host), [{ execute: 'set_link', arguments: { name: netdevId, up } }]);
}
