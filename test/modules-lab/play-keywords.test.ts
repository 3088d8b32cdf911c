// Play keywords on a real host over SSH. check_mode: a play, a block, a role entry and a task set to
// true leave the host's files alone; check_mode: false inside a --check run really applies.
// connection: local (play or task) acts on the controller only (inside this test's temp dir).
// Each assertion reads the host's (or the controller's) files after the run.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-h1check-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const failures = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'host_result' && (e.result.status === 'failed' || e.result.status === 'unreachable') ? [`${e.task.name}: ${e.result.msg}`] : []));

async function play(name: string, yaml: string, check = false): Promise<RunEvent[]> {
  const playbook = path.join(dir, `${name}.yml`);
  writeFileSync(playbook, yaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], check, retryFile: false, onEvent: (e) => events.push(e) });
  if (summary.exitCode !== 0) throw new Error(`${name}: exit ${summary.exitCode}\n${failures(events).join('\n')}`);
  return events;
}

test.serial('check_mode on play, block, role and task keeps the host untouched; check_mode: false under --check applies', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  mkdirSync(path.join(dir, 'roles/dry/tasks'), { recursive: true });
  writeFileSync(path.join(dir, 'roles/dry/tasks/main.yml'), '- { name: role copy, copy: { content: "role\\n", dest: /srv/h1/role-copy } }\n');

  await play('play-level', `
- hosts: all
  gather_facts: false
  check_mode: true
  roles:
    - role: dry
  tasks:
    - name: the directory (really)
      file: { path: /srv/h1, state: directory, mode: "0755" }
      check_mode: false
    - name: play copy
      copy: { content: "play\\n", dest: /srv/h1/play-copy }
    - name: play touch
      file: { path: /srv/h1/play-touch, state: touch }
    - name: play command
      command: touch /srv/h1/play-command
    - name: mode seen by a task that runs
      shell: echo "check={{ ansible_check_mode }}" > /srv/h1/play-mode
      check_mode: false
`);
  t.is(await host.sh('ls /srv/h1'), 'play-mode\n', 'only the check_mode: false tasks wrote');
  t.is(await host.sh('cat /srv/h1/play-mode'), 'check=False\n');

  await play('block-and-task', `
- hosts: all
  gather_facts: false
  tasks:
    - block:
        - name: block copy
          copy: { content: "block\\n", dest: /srv/h1/block-copy }
        - name: block shell
          shell: echo x > /srv/h1/block-shell
        - name: inside, really
          copy: { content: "inside\\n", dest: /srv/h1/block-inside }
          check_mode: false
      check_mode: true
    - name: task copy
      copy: { content: "task\\n", dest: /srv/h1/task-copy }
      check_mode: true
    - name: after the block
      file: { path: /srv/h1/after, state: touch }
`);
  t.is(await host.sh('ls /srv/h1'), 'after\nblock-inside\nplay-mode\n');

  const events = await play('cli-check', `
- hosts: all
  gather_facts: false
  tasks:
    - name: forced run
      command: touch /srv/h1/forced
      check_mode: false
    - name: forced block
      block:
        - copy: { content: "forced\\n", dest: /srv/h1/forced-copy }
      check_mode: no
    - name: checked copy
      copy: { content: "no\\n", dest: /srv/h1/checked-copy }
    - name: checked command
      command: cat /srv/h1/after
      register: r
    - name: uses the skipped result
      file: { path: /srv/h1/from-register, state: touch }
      when: r.stdout != "1"
      check_mode: false
`, true);
  t.is(await host.sh('ls /srv/h1'), 'after\nblock-inside\nforced\nforced-copy\nfrom-register\nplay-mode\n');
  const status = (name: string) => events.flatMap((e) => (e.type === 'host_result' && e.task.name === name ? [e.result.status] : []));
  t.deepEqual(status('checked copy'), ['changed']);
  t.deepEqual(status('checked command'), ['skipped']);
});

test.serial('connection: local on a play and on a task runs on the controller; SSH plays around it still reach the host', async (t) => {
  t.timeout(3 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const ctrl = mkdtempSync(path.join(dir, 'controller-'));
  await play('connections', `
- hosts: all
  gather_facts: false
  tasks:
    - file: { path: /srv/h1c, state: directory }
    - copy: { content: "ssh\\n", dest: /srv/h1c/ssh-1 }
- hosts: all
  gather_facts: false
  connection: local
  tasks:
    - copy: { content: "play={{ inventory_hostname }}\\n", dest: "${ctrl}/local-play" }
- hosts: all
  gather_facts: false
  tasks:
    - copy: { content: "ssh\\n", dest: /srv/h1c/ssh-2 }
    - copy: { content: "task={{ inventory_hostname }}\\n", dest: "${ctrl}/local-task" }
      connection: local
`);
  const name = host.state.hosts[0].name;
  t.is(readFileSync(path.join(ctrl, 'local-play'), 'utf8'), `play=${name}\n`);
  t.is(readFileSync(path.join(ctrl, 'local-task'), 'utf8'), `task=${name}\n`);
  t.is(await host.sh('ls /srv/h1c'), 'ssh-1\nssh-2\n');
  t.is(await host.sh(`test -e ${ctrl} && echo found || echo absent`), 'absent\n');
});
