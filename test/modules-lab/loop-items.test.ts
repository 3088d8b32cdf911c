// A loop in a state module runs every item, as Ansible does: an item whose apply fails (here a
// directory under a regular file) is reported by name, and the items after it still run on the host.
// An error inside a template file names that file and its line, not the task's line.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-h7loop-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

test.serial('a failing loop item is named and the later items still run', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  await host.sh('rm -rf /srv/h7 && mkdir -p /srv/h7 && echo x > /srv/h7/plain-file');
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(playbook, `
- hosts: all
  gather_facts: false
  tasks:
    - name: directories
      file: { path: "/srv/h7/{{ item }}", state: directory, mode: "0755" }
      loop: [first, plain-file/under-a-file, third]
`);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], retryFile: false, onEvent: (e) => events.push(e) });
  t.is(summary.exitCode, 2, 'the host failed');
  const result = events.find((e) => e.type === 'host_result' && e.task.name === 'directories');
  t.truthy(result);
  const r = (result as Extract<RunEvent, { type: 'host_result' }>).result;
  t.is(r.status, 'failed');
  t.regex(r.msg ?? '', /item 'plain-file\/under-a-file'/, r.msg);
  t.notRegex(r.msg ?? '', /item 'third'/);
  const items = (r.result as { items: { label: string; status: string }[] }).items;
  t.deepEqual(items.map((i) => [i.label, i.status]), [['first', 'changed'], ['plain-file/under-a-file', 'failed'], ['third', 'changed']]);
  t.is((await host.sh('test -d /srv/h7/first && test -d /srv/h7/third && echo both')).trim(), 'both', 'the item after the failure ran on the host');
});

test.serial('an undefined variable in a template file names the template and its line', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  mkdirSync(path.join(dir, 'templates'), { recursive: true });
  writeFileSync(path.join(dir, 'templates/motd.j2'), 'line one\n{{ inventory_hostname }}\nnode {{ h7_not_defined }} here\n');
  const playbook = path.join(dir, 'tpl.yml');
  writeFileSync(playbook, '- hosts: all\n  gather_facts: false\n  tasks:\n    - name: motd\n      template: { src: motd.j2, dest: /srv/h7-motd }\n');
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], retryFile: false, onEvent: (e) => events.push(e) });
  t.is(summary.exitCode, 2);
  const result = events.find((e) => e.type === 'host_result' && e.task.name === 'motd') as Extract<RunEvent, { type: 'host_result' }> | undefined;
  t.regex(result?.result.msg ?? '', new RegExp(`^${path.join(dir, 'templates/motd.j2')}:3: .*h7_not_defined.*\\(template of the task at ${playbook}:4:7\\)`), result?.result.msg);
});
