// reboot and wait_for_connection on a real lab host: the container really reboots (systemd inside
// asks nspawn for it, the lab's supervisor boots it again on the same disk), the module reconnects the
// same transport, the play goes on on the same host: a new boot id, /run emptied, /root kept. Under
// --check neither reboots (reboot reports changed, wait_for_connection is skipped, as in Ansible).
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { HostResult, RunEvent } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-me3-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const PLAYBOOK = `
- hosts: all
  gather_facts: false
  tasks:
    - { name: before, command: cat /proc/sys/kernel/random/boot_id, register: before }
    - { name: marks, shell: "touch /run/hw-volatile /root/hw-kept" }
    - { name: reboot it, reboot: { reboot_timeout: 150, post_reboot_delay: 1, msg: "hostwire's test; $(touch /root/injected)" }, register: rebooted }
    - { name: after, command: cat /proc/sys/kernel/random/boot_id, register: after }
    - { name: files, shell: "ls /run/hw-volatile /root/hw-kept /root/injected 2>&1; true", register: files }
    - { name: back, wait_for_connection: { timeout: 60, sleep: 1 } }
`;

async function play(check: boolean): Promise<RunEvent[]> {
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(playbook, PLAYBOOK);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], check, retryFile: false, onEvent: (e) => events.push(e) });
  const failed = events.flatMap((e) => (e.type === 'host_result' && ['failed', 'unreachable'].includes(e.result.status) ? [`${e.task.name}: ${e.result.msg}`] : []));
  if (summary.exitCode !== 0) throw new Error(`exit ${summary.exitCode}\n${failed.join('\n')}`);
  return events;
}

const one = (events: RunEvent[], task: string): HostResult => events.flatMap((e) => (e.type === 'host_result' && e.task.name === task ? [e.result] : []))[0]!;

test.serial('reboot reboots a real host over the same connection and the play goes on there; wait_for_connection answers', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const events = await play(false);
  const rebooted = one(events, 'reboot it');
  t.is(rebooted.status, 'changed');
  t.true(rebooted.result!.rebooted as boolean);
  t.true(typeof rebooted.result!.elapsed === 'number' && (rebooted.result!.elapsed as number) < 150);
  t.not(one(events, 'after').stdout, one(events, 'before').stdout, 'a new boot id');
  const files = String(one(events, 'files').stdout);
  t.regex(files, /cannot access '\/run\/hw-volatile'/, '/run is empty after the reboot');
  t.regex(files, /^\/root\/hw-kept$/m, 'the disk is kept');
  t.regex(files, /cannot access '\/root\/injected'/, 'msg went to shutdown as one quoted word');
  t.is(one(events, 'back').status, 'ok');

  const bootId = await host.sh('cat /proc/sys/kernel/random/boot_id');
  const dry = await play(true);
  t.deepEqual([one(dry, 'reboot it').status, one(dry, 'reboot it').result!.rebooted], ['changed', true]);
  t.is(one(dry, 'back').status, 'skipped');
  t.is(await host.sh('cat /proc/sys/kernel/random/boot_id'), bootId, '--check did not reboot');
});
