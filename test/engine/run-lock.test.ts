// The run's lock waits: a first interrupt ends a wait cleanly (recap, exit 99, nothing started),
// every wait has a deadline, the wait names the holder, and two inventory names for one machine
// are refused before any lock is taken. Real flock(1) on this machine (-c local) and a real sshd.
import test from 'ava';
import { existsSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { acquireHostLock, LocalTransport } from '../../src/transports/index.js';
import { runPlaybook, type RunOptions } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { startSshd } from '../transports/sshd-fixture.js';
import { workspace, type Workspace } from './helpers.js';

const PLAY = `- hosts: all\n  gather_facts: false\n  tasks:\n    - name: touch\n      command: "true"\n`;
const hostName = () => `h3lock${process.pid}${Math.random().toString(36).slice(2, 8)}`;

/** Another run's lock on the -c local host `name`, held by this process. */
async function holdLocal(name: string) {
  const lock = await acquireHostLock(new LocalTransport(name), { file: `local-${name}.lock` });
  return async () => {
    await lock.release();
    rmSync(`/run/hostwire/local-${name}.lock`, { force: true });
  };
}

function start(ws: Workspace, inventory: string, opts: Partial<RunOptions> & { onWait?: (e: RunEvent) => void } = {}, play = PLAY) {
  const events: RunEvent[] = [];
  ws.write('inventory.ini', inventory);
  const playbook = ws.write('site.yml', play);
  const done = runPlaybook({
    playbook, inventory: [path.join(ws.dir, 'inventory.ini')], retryFile: false, ...opts,
    onEvent: (e) => { events.push(e); if (e.type === 'host_wait') opts.onWait?.(e); },
  });
  return { events, done };
}

test('a first interrupt ends the lock wait at once: recap, exit 99, no task started, the holder named', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  const name = hostName();
  t.teardown(await holdLocal(name));
  const abort = new AbortController();
  let waitedAt = 0;
  const { events, done } = start(ws, `${name} ansible_connection=local\n`, {
    signal: abort.signal, lockTimeoutSec: 600,
    onWait: () => { waitedAt = Date.now(); abort.abort(); },
  });
  const summary = await done;
  t.true(Date.now() - waitedAt < 3000, 'the wait ended at once');
  t.true(summary.interrupted);
  t.is(summary.exitCode, 99);
  t.false(events.some((e) => e.type === 'task_start'), 'no task started');
  t.true(events.some((e) => e.type === 'run_end'), 'the recap is printed');
  const wait = events.find((e) => e.type === 'host_wait');
  t.truthy(wait);
  if (wait?.type === 'host_wait') {
    t.true(wait.message.includes(`held by hostwire on ${hostname()} pid ${process.pid} user root since`), wait.message);
    t.regex(wait.message, /giving up after 600 s \(--lock-timeout\)/);
  }
});

test('a lock wait gives up at --lock-timeout, naming the holder', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  const name = hostName();
  t.teardown(await holdLocal(name));
  const t0 = Date.now();
  const { done } = start(ws, `${name} ansible_connection=local\n`, { lockTimeoutSec: 2 });
  const e = await t.throwsAsync(done);
  t.regex(e!.message, new RegExp(`host ${name} is locked by another hostwire run \\(held by hostwire on .* pid ${process.pid} .*\\): gave up after waiting 2 s \\(--lock-timeout\\)`));
  t.true(Date.now() - t0 < 10_000);
});

test('two inventory names for one machine are refused before locking (same address, or same host key)', async (t) => {
  const sshd = await startSshd();
  t.teardown(() => sshd.stop());
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  const conn = `ansible_user=root ansible_ssh_private_key_file=${sshd.keyFile} ansible_port=${sshd.port}`;
  const same = start(ws, `node-a ansible_host=127.0.0.1 ${conn}\nnode-b ansible_host=127.0.0.1 ${conn}\n`, { hostKeyChecking: 'off', lockTimeoutSec: 5 });
  const e1 = await t.throwsAsync(same.done);
  t.regex(e1!.message, new RegExp(`inventory hosts 'node-a' and 'node-b' are one machine \\(the same address \\(root@127\\.0\\.0\\.1:${sshd.port}\\)\\)`));
  const alias = start(ws, `node-a ansible_host=127.0.0.1 ${conn}\nnode-c ansible_host=localhost ${conn}\n`, { hostKeyChecking: 'off', lockTimeoutSec: 5 });
  const e2 = await t.throwsAsync(alias.done);
  t.regex(e2!.message, /inventory hosts 'node-a' and 'node-c' are one machine \(the same SSH host key\)/);
  // In batches (serial: 1) the first batch's lock is still held when the second batch comes.
  const serial = start(ws, `node-a ansible_host=127.0.0.1 ${conn}\nnode-b ansible_host=127.0.0.1 ${conn}\n`, { hostKeyChecking: 'off', lockTimeoutSec: 5 }, PLAY.replace('- hosts: all\n', '- hosts: all\n  serial: 1\n'));
  const e3 = await t.throwsAsync(serial.done);
  t.regex(e3!.message, /inventory hosts 'node-a' and 'node-b' are one machine/);
});

test('after an interrupt no handler starts, though a task that was running notified one (the recap stays true)', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  const name = hostName();
  ws.write('inventory.ini', `${name} ansible_connection=local\n`);
  const playbook = ws.write('site.yml', [
    '- hosts: all', '  gather_facts: false', '  tasks:',
    '    - name: running when Ctrl-C comes', `      command: sleep 1`, '      notify: restart',
    '    - name: never started', '      command: "true"',
    '  handlers:', '    - name: restart', `      command: touch ${ws.dir}/handler-ran`, '',
  ].join('\n'));
  const abort = new AbortController();
  const events: RunEvent[] = [];
  const summary = await runPlaybook({
    playbook, inventory: [path.join(ws.dir, 'inventory.ini')], retryFile: false, signal: abort.signal,
    onEvent: (e) => { events.push(e); if (e.type === 'task_start' && e.task.name === 'running when Ctrl-C comes') abort.abort(); },
  });
  t.true(summary.interrupted);
  t.is(summary.exitCode, 99);
  const started = events.flatMap((e) => (e.type === 'task_start' ? [e.task.name] : []));
  t.deepEqual(started, ['running when Ctrl-C comes']);
  t.is(summary.stats[name]!.changed, 1, 'the running task finished');
  t.false(existsSync(`${ws.dir}/handler-ran`), 'the handler never ran');
  rmSync(`/run/hostwire/local-${name}.lock`, { force: true });
});
