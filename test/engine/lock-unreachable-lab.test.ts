// A run lock that cannot be taken for a transport reason is that host's unreachability, as a failed
// connect is: on two real lab hosts, one whose lock directory belongs to another user (the lock
// script refuses it), the run ends normally with the recap and exit code 4; that host is unreachable
// with the reason named (no stack trace), and the other host gathers facts and runs its task.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labDown, labExec, labInventoryYaml, labUp } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import { EXIT } from '../../src/engine/runner/run-options.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);

test('a lock refused by the host makes that host unreachable with the reason; the other host runs; exit 4', async (t) => {
  t.timeout(180_000, `${LAB}: the test's own deadline`);
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${LAB}-`));
  t.teardown(async () => {
    await labDown(LAB).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  await labDown(LAB).catch(() => undefined);
  const up = await labUp({ name: LAB, hosts: 2 });
  const [bad, good] = up.state.hosts;
  const planted = await labExec(up.state, bad!, 'mkdir -p /run/hostwire && chown nobody /run/hostwire && stat -c %U /run/hostwire');
  t.is(planted.stdout.trim(), 'nobody', planted.stderr);
  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(inventory, labInventoryYaml(up.state));
  writeFileSync(playbook, '- hosts: all\n  tasks:\n    - name: after the lock\n      command: cat /etc/hostname\n');

  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [inventory], retryFile: false, onEvent: (e) => events.push(e) });

  t.is(summary.exitCode, EXIT.unreachable);
  t.like(summary.stats[bad!.name], { unreachable: 1, ok: 0, changed: 0 });
  t.like(summary.stats[good!.name], { unreachable: 0, failed: 0, ok: 2, changed: 1 });
  const results = events.flatMap((e) => (e.type === 'host_result' ? [{ task: e.task.name, ...e.result }] : []));
  const refused = results.find((r) => r.host === bad!.name);
  t.like(refused, { task: 'Gathering Facts', status: 'unreachable' });
  t.regex(refused?.msg ?? '', new RegExp(`^cannot take the run lock on ${bad!.name}: refusing the lock file /run/hostwire: it must be`));
  t.notRegex(refused?.msg ?? '', /\n\s+at /, 'no stack trace');
  t.deepEqual(results.filter((r) => r.host === good!.name).map((r) => `${r.task}: ${r.status}`), ['Gathering Facts: ok', 'after the lock: changed']);
  t.true(events.some((e) => e.type === 'run_end'), 'the recap is printed');
});
