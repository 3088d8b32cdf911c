// The run lock dies with its holder on a real lab host (systemd, sshd without ClientAlive, flock):
// run A takes the lock, then nftables on the host drops every packet of A's connection (a
// partition: sshd never notices, the session stays established). A second run, a real
// runPlaybook over the lab inventory, is told who holds the lock, and gets it within the lease.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { acquireHostLock, createTransport } from '../../src/transports/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import type { Transport } from '../../src/transports/transport.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LEASE_SEC = 8;
const until = async (cond: () => boolean | Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await cond()) && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
  return cond();
};

test('a partitioned holder loses the lock within its lease; the next run gets it and names the old holder while waiting', async (t) => {
  t.timeout(200_000, 'h3part: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-h3part-'));
  let host: LabHost | undefined;
  let a: Transport | undefined;
  t.teardown(async () => {
    await host?.sh('nft delete table inet h3cut 2>/dev/null; true').catch(() => undefined);
    await a?.close().catch(() => undefined);
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  host = await labHost(testLabName('h3part'));
  const h = host.state.hosts[0]!;
  // Run A: its own connection and the lock (the host's default lock file, /run/hostwire/run.lock).
  a = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: host.state.keyFile, knownHostsFile: host.state.knownHostsFile, netns: host.state.netns });
  await a.connect();
  const port = (await a.exec('echo "${SSH_CLIENT#* }"')).stdout.trim().split(' ')[0]!;
  t.regex(port, /^\d+$/);
  await acquireHostLock(a, { leaseSec: LEASE_SEC });
  t.regex(await host.sh('cat /run/hostwire/run.lock; stat -c "%a %U" /run/hostwire/run.lock /run/hostwire'), /^hostwire on .* pid \d+ .*\n600 root\n700 root\n$/);
  // The partition: every packet of A's connection dropped on the host, both ways.
  await host.sh(`nft -f - <<'EOF'
table inet h3cut {
  chain in { type filter hook input priority -300; tcp dport 22 tcp sport ${port} drop; }
  chain out { type filter hook output priority -300; tcp sport 22 tcp dport ${port} drop; }
}
EOF`);
  const cutAt = Date.now();
  // Run B: a real run over the lab inventory.
  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(inventory, labInventoryYaml(host.state));
  writeFileSync(playbook, '- hosts: all\n  gather_facts: false\n  tasks:\n    - name: under the lock\n      command: cat /run/hostwire/run.lock\n      register: holder\n    - debug: var=holder.stdout\n');
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [inventory], retryFile: false, lockTimeoutSec: 90, onEvent: (e) => events.push(e) });
  const gotAt = Date.now();
  t.is(summary.exitCode, 0, JSON.stringify(events.filter((e) => e.type === 'host_result')));
  const wait = events.find((e) => e.type === 'host_wait');
  t.truthy(wait, 'B had to wait for A');
  if (wait?.type === 'host_wait') t.regex(wait.message, new RegExp(`held by hostwire on .* pid ${process.pid} user root since`));
  // Bounded by the lease (+ the retry pause and a loaded machine), not by sshd noticing (never).
  t.true(gotAt - cutAt < (LEASE_SEC + 20) * 1000, `B got the lock ${gotAt - cutAt} ms after the cut`);
  t.log(`lease ${LEASE_SEC} s: the second run got the lock ${((gotAt - cutAt) / 1000).toFixed(1)} s after the partition`);
  // sshd still holds A's session: it never noticed the partition, only the lease freed the lock.
  t.regex(await host.sh(`ss -Htn state established "( sport = :22 and dport = :${port} )"`), new RegExp(`:${port}\\b`));
  // A's controller side noticed the dead path by itself (ssh keepalive).
  t.true(await until(() => !(a as Transport & { connected: boolean }).connected, 30_000), 'keepalive noticed the dead path');
});

test('a run whose connection was partitioned reconnects and takes its lock again within the lease (was: 353 s, then forever)', async (t) => {
  t.timeout(240_000, 'h3recon: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-h3recon-'));
  let host: LabHost | undefined;
  t.teardown(async () => {
    await host?.sh('nft delete table inet h3cut 2>/dev/null; true').catch(() => undefined);
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  host = await labHost(testLabName('h3recon'));
  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(inventory, labInventoryYaml(host.state));
  // The run's own SSH connection is cut for good while a local task runs (22 s): keepalive drops it,
  // the next task reconnects (a new connection, not cut), and the lock is taken again once the old
  // holder's lease (30 s) ran out. sshd keeps the old session (its packets are still dropped): without
  // the lease the old holder would live until TCP gives up (~15 min), past the lock timeout.
  writeFileSync(playbook, [
    '- hosts: all', '  gather_facts: false', '  tasks:',
    '    - name: who am I', '      shell: echo "${SSH_CLIENT#* }"', '      register: client',
    '    - name: meanwhile on the controller', '      command: sleep 22', '      delegate_to: localhost',
    '    - name: after the partition', '      command: cat /run/hostwire/run.lock', '',
  ].join('\n'));
  const events: RunEvent[] = [];
  let cut: Promise<void> | undefined;
  let cutAt = 0;
  let oldPort = '';
  const summary = await runPlaybook({
    playbook, inventory: [inventory], retryFile: false,
    onEvent: (e) => {
      events.push(e);
      if (e.type !== 'host_result' || e.task.name !== 'who am I') return;
      const port = String(e.result.stdout ?? '').trim().split(' ')[0]!;
      oldPort = port;
      cutAt = Date.now();
      cut = (async () => {
        await host!.sh(`nft -f - <<'EOF'
table inet h3cut {
  chain in { type filter hook input priority -300; tcp dport 22 tcp sport ${port} drop; }
  chain out { type filter hook output priority -300; tcp sport 22 tcp dport ${port} drop; }
}
EOF`);
      })();
    },
  });
  await cut;
  const results = events.flatMap((e) => (e.type === 'host_result' ? [`${e.task.name}: ${e.result.status} ${e.result.msg ?? ''}`] : []));
  t.is(summary.exitCode, 0, results.join('\n'));
  t.true(cutAt > 0, 'the path was cut');
  const after = events.find((e) => e.type === 'host_result' && e.task.name === 'after the partition');
  t.is(after?.type === 'host_result' ? after.result.status : undefined, 'changed');
  const wait = events.find((e) => e.type === 'host_wait');
  // The old session's holder was still there when the run came back: it waited for it, by name.
  if (wait?.type === 'host_wait') t.regex(wait.message, new RegExp(`held by hostwire on .* pid ${process.pid} `));
  const took = (Date.now() - cutAt) / 1000;
  // sshd still holds the old session: only the lease freed the lock.
  t.regex(await host.sh(`ss -Htn state established "( sport = :22 and dport = :${oldPort} )"`), new RegExp(`:${oldPort}\\b`));
  t.true(took < 60, `the run went on ${took.toFixed(1)} s after the cut`);
  t.log(`partition: the run reconnected and re-locked; it ended ${took.toFixed(1)} s after the cut${wait ? ' (waited for its own old holder)' : ''}`);
});
