// The modules that act on the run itself, on a real lab host over SSH: setup as a task (one exec,
// its facts used by group_by), group_by and add_host changing the in-memory inventory (a later play
// reaches the second lab host under the name add_host gave it), set_stats in the summary, pause between,
// and the same playbook under --check (they all run there, as in Ansible).
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
const dir = mkdtempSync(path.join(tmpdir(), 'hw-me2-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const PLAYBOOK = `
- hosts: all[0]
  gather_facts: false
  tasks:
    - { name: facts, setup: { gather_subset: [min, network], filter: ["ansible_distribution*", ansible_default_ipv4, ansible_hostname] } }
    - { name: by os, group_by: { key: "os_{{ ansible_distribution }}", parents: linux } }
    - name: alias
      add_host:
        name: alias-of-{{ other }}
        groups: aliases
        ansible_host: "{{ hostvars[other].ansible_host }}"
        ansible_user: root
        ansible_ssh_private_key_file: "{{ ansible_ssh_private_key_file }}"
        ansible_ssh_common_args: "{{ ansible_ssh_common_args }}"
        hostwire_netns: "{{ hostwire_netns }}"
      vars: { other: "{{ groups.all[1] }}" }
    - { name: count, set_stats: { data: { seen: 1, hosts: ["{{ inventory_hostname }}"] } } }
    - { name: breathe, pause: { seconds: 1 } }
- hosts: os_Debian:&linux
  gather_facts: false
  tasks:
    - { name: grouped, command: hostname }
- hosts: aliases
  gather_facts: false
  tasks:
    - { name: through the alias, command: cat /etc/hostname }
    - { name: its facts, debug: { msg: "{{ ansible_distribution | default('none') }}" } }
`;

async function play(check: boolean): Promise<{ events: RunEvent[]; stats?: Record<string, Record<string, unknown>> }> {
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(playbook, PLAYBOOK);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], check, retryFile: false, onEvent: (e) => events.push(e) });
  const failed = events.flatMap((e) => (e.type === 'host_result' && ['failed', 'unreachable'].includes(e.result.status) ? [`${e.task.name}: ${e.result.msg}`] : []));
  if (summary.exitCode !== 0) throw new Error(`exit ${summary.exitCode}\n${failed.join('\n')}`);
  return { events, stats: summary.customStats };
}

const results = (events: RunEvent[], task: string): HostResult[] => events.flatMap((e) => (e.type === 'host_result' && e.task.name === task ? [e.result] : []));

test.serial('setup, group_by, add_host, set_stats and pause on a real host; a later play reaches a host by the added name', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB, { hosts: 2 });
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const name = host.state.hosts[0]!.name;
  const second = host.state.hosts[1]!.name;
  for (const check of [false, true]) {
    const { events, stats } = await play(check);
    const facts = results(events, 'facts')[0]!.result!.ansible_facts as Record<string, unknown>;
    t.is(facts.ansible_distribution, 'Debian');
    t.is((facts.ansible_default_ipv4 as { address: string }).address, host.state.hosts[0]!.ip);
    t.deepEqual(results(events, 'by os').map((r) => r.status), ['changed']);
    t.deepEqual(results(events, 'alias').map((r) => `${r.host} ${r.status}`), [`${name} changed`]);
    t.deepEqual(results(events, 'grouped').map((r) => r.host), [name], 'group_by\'s group is a play target');
    const via = results(events, 'through the alias');
    t.deepEqual(via.map((r) => r.host), [`alias-of-${second}`]);
    if (!check) t.is(via[0]!.stdout?.trim(), second, 'the command ran on the second host through the new name');
    else t.is(via[0]!.status, 'skipped', 'command without creates is skipped in check mode');
    t.is(results(events, 'its facts')[0]!.msg, 'none', 'the alias is a host of its own: no facts yet');
    t.regex(String(results(events, 'breathe')[0]!.result!.stdout), /^Paused for 1\.\d+ seconds$/);
    t.deepEqual(stats, { _run: { seen: 1, hosts: [name] } }, `set_stats (check=${check})`);
  }
});
