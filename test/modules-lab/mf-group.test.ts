// group on a real lab host: converge (groupadd with gid), again changed=0, drift (gid changed by hand)
// seen by --check without touching the host and fixed by a run, absent removes; the result's keys and
// values as ansible-core 2.14's group registered them for the same tasks on a lab host.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent, RunSummary } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';

const LAB = 'mfgroup';
const dir = mkdtempSync(path.join(tmpdir(), 'hw-mfgroup-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const play = (state: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: g
      ansible.builtin.group: { name: mfops, gid: 4701, state: ${state} }
    - name: s
      group: name=mfsys system=yes state=${state}
`;

async function run(name: string, yaml: string, check = false): Promise<{ summary: RunSummary; result(task: string): Record<string, any> }> {
  const playbook = path.join(dir, `${name}.yml`);
  writeFileSync(playbook, yaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], check, retryFile: false, onEvent: (e) => events.push(e) });
  const result = (task: string) => {
    const e = events.find((x) => x.type === 'host_result' && x.task.name === task);
    return e && e.type === 'host_result' ? { status: e.result.status, ...(e.result.result as object) } : {};
  };
  return { summary, result };
}

test('group on a lab host: converge, changed=0 again, --check sees drift and leaves it, absent removes', async (t) => {
  t.timeout(4 * 60_000);
  host = await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const name = host.state.hosts[0]!.name;
  const checked = await run('check', play('present'), true);
  t.deepEqual(checked.result('g'), { status: 'changed', changed: true, failed: false });
  t.is(await host.sh('getent group mfops || echo none'), 'none\n');

  const first = await run('converge', play('present'));
  t.deepEqual(first.result('g'), { status: 'changed', name: 'mfops', state: 'present', changed: true, failed: false, system: false, gid: 4701 });
  t.is(await host.sh('getent group mfops'), 'mfops:x:4701:\n');
  t.true(Number((await host.sh('getent group mfsys')).split(':')[2]) < 1000, 'a system group takes a system gid');
  t.like((await run('again', play('present'))).summary.stats[name], { changed: 0, failed: 0 });

  await host.sh('groupmod -g 4702 mfops');
  const drift = await run('drift', play('present'), true);
  t.like(drift.result('g'), { status: 'changed', gid: 4702 });
  t.is(await host.sh('getent group mfops'), 'mfops:x:4702:\n', '--check left the drift');
  await run('fix', play('present'));
  t.is(await host.sh('getent group mfops'), 'mfops:x:4701:\n');

  const gone = await run('absent', play('absent'));
  t.deepEqual(gone.result('g'), { status: 'changed', name: 'mfops', state: 'absent', changed: true, failed: false });
  t.is(await host.sh('getent group mfops mfsys || echo none'), 'none\n');
  t.like((await run('absent-again', play('absent'))).summary.stats[name], { changed: 0 });
});
