// A first read larger than one shell argument (Linux: 128 KiB, and sshd hands the whole command to
// the login shell as one `-c` argument): a `file` loop over 350 long paths converges and is idempotent.
// 350 two-level paths of ~490 bytes make the same read size 3,000 short ones did at an eighth of the
// round trips (each changed item costs an apply and a re-read: 3,000 items took 3 min at load 17, over
// the test's deadline in CI).
// Before the fix the run failed at 'cannot take the run lock' (the read rode in the lock's script).
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const ITEMS = 350;

test('a file loop over 350 long paths (a read over 128 KiB) converges, then reports nothing changed', async (t) => {
  t.timeout(4.5 * 60_000);
  const deadline = AbortSignal.timeout(4 * 60_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-h12big-'));
  let host: LabHost | undefined;
  t.teardown(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  host = await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  await host.sh('rm -rf /srv/h12');
  // Names long enough that the probe batch alone is far above 128 KiB.
  const names = Array.from({ length: ITEMS }, (_, i) => `directory-number-${String(i).padStart(5, '0')}-of-a-large-batch-${'x'.repeat(200)}/${'y'.repeat(240)}`);
  t.true(names.reduce((n, x) => n + '/srv/h12/'.length + x.length, 0) > 160 * 1024, 'the paths alone exceed one shell argument');
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(playbook, `
- hosts: all
  gather_facts: false
  vars:
    h12_names: ${JSON.stringify(names)}
  tasks:
    - name: many directories
      file: { path: "/srv/h12/{{ item }}", state: directory, mode: "0755" }
      loop: "{{ h12_names }}"
`);
  const run = async () => {
    const events: RunEvent[] = [];
    const summary = await runPlaybook({
      playbook, inventory: [path.join(dir, 'inventory.yml')], retryFile: false, signal: deadline, onEvent: (e) => events.push(e),
    });
    const failures = events.flatMap((e) => (e.type === 'host_result' && e.result.status !== 'ok' && e.result.status !== 'changed' ? [e.result.msg] : []));
    return { summary, failures };
  };
  const first = await run();
  t.deepEqual(first.failures, [], 'first run');
  t.is(first.summary.exitCode, 0);
  const stats = Object.values(first.summary.stats)[0]!;
  t.is(stats.changed, 1, 'the loop task changed');
  t.is((await host.sh('find /srv/h12 -mindepth 1 -maxdepth 1 -type d | wc -l')).trim(), String(ITEMS));
  const second = await run();
  t.deepEqual(second.failures, [], 'second run');
  t.is(second.summary.exitCode, 0);
  t.is(Object.values(second.summary.stats)[0]!.changed, 0, 'the second run changes nothing');
});
