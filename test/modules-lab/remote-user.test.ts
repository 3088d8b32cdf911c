// remote_user over SSH on a real lab host, as Ansible applies it: the play's keyword is the login when
// the host sets no ansible_user (a play as another user gets its own connection, the earlier one comes
// back after it); a task's (or block's, role entry's) keyword logs in as that user for that task; the
// host's own ansible_user wins over every keyword.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { labInventory } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-d2user-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The lab inventory, with the host's ansible_user kept or dropped. */
function inventory(h: LabHost, keepUser: boolean): string {
  const inv = labInventory(h.state) as { all: { hosts: Record<string, Record<string, unknown>> } };
  if (!keepUser) for (const v of Object.values(inv.all.hosts)) delete v.ansible_user;
  const file = path.join(dir, keepUser ? 'with-user.yml' : 'no-user.yml');
  writeFileSync(file, stringify(inv));
  return file;
}

async function play(inv: string, yaml: string) {
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(playbook, yaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [inv], retryFile: false, onEvent: (e) => events.push(e) });
  const out = (name: string) => events.flatMap((e) => (e.type === 'host_result' && e.task.name === name ? [e.result] : []))[0];
  return { summary, who: (name: string) => String(out(name)?.stdout ?? out(name)?.msg) };
}

test.serial('remote_user on plays, blocks, role entries and tasks; the host\'s ansible_user wins', async (t) => {
  t.timeout(4 * 60_000);
  host = await labHost(LAB);
  await host.sh([
    'id d2u >/dev/null 2>&1 || useradd -m -s /bin/sh d2u',
    'install -d -m 700 -o d2u -g d2u ~d2u/.ssh',
    'install -m 600 -o d2u -g d2u /root/.ssh/authorized_keys ~d2u/.ssh/authorized_keys',
  ].join(' && '));
  mkdirSync(path.join(dir, 'roles/who/tasks'), { recursive: true });
  writeFileSync(path.join(dir, 'roles/who/tasks/main.yml'), '- name: role task\n  command: id -un\n');
  const noUser = inventory(host, false);
  const r = await play(noUser, `
- hosts: all
  gather_facts: false
  remote_user: root
  roles:
    - role: who
      remote_user: d2u
  tasks:
    - name: play as root
      command: id -un
    - name: task as d2u
      command: id -un
      remote_user: d2u
    - block:
        - name: block as d2u
          command: id -un
      remote_user: "{{ 'd2' ~ 'u' }}"
- hosts: all
  gather_facts: false
  remote_user: d2u
  tasks:
    - name: second play as d2u
      command: id -un
    - name: back to root for one task
      command: id -un
      remote_user: root
- hosts: all
  gather_facts: false
  remote_user: root
  tasks:
    - name: third play as root again
      command: id -un
`);
  t.is(r.summary.exitCode, 0);
  t.is(r.who('role task'), 'd2u');
  t.is(r.who('play as root'), 'root');
  t.is(r.who('task as d2u'), 'd2u');
  t.is(r.who('block as d2u'), 'd2u');
  t.is(r.who('second play as d2u'), 'd2u');
  t.is(r.who('back to root for one task'), 'root');
  t.is(r.who('third play as root again'), 'root');
  // The host's own ansible_user (root) wins over every keyword, as in Ansible.
  const w = await play(inventory(host, true), `
- hosts: all
  gather_facts: false
  remote_user: d2u
  tasks:
    - name: host var wins over the play
      command: id -un
    - name: host var wins over the task
      command: id -un
      remote_user: d2u
`);
  t.is(w.summary.exitCode, 0);
  t.is(w.who('host var wins over the play'), 'root');
  t.is(w.who('host var wins over the task'), 'root');
});
