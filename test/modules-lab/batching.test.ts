// Issue 4's promise, measured: a no-op re-run of 24 state-module tasks on 3 real hosts reads all
// of its state in one remote exec per host besides the run lock's (which also gathers the facts).
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labDown, labInventoryYaml, labUp } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const playbook = path.join(root, 'test/modules-lab/fixtures/batch/node-prep.yml');
const dir = mkdtempSync(path.join(tmpdir(), 'hw-batch-'));
test.after.always(async () => {
  await labDown(LAB);
  rmSync(dir, { recursive: true, force: true });
});

test.serial('24 module tasks on 3 hosts: converge, then a no-op re-run in ~1 state-read exec per host', async (t) => {
  const up = await labUp({ name: LAB, hosts: 3 });
  const inventory = path.join(dir, 'inventory.yml');
  writeFileSync(inventory, labInventoryYaml(up.state));
  const failures = (events: RunEvent[]) => events.flatMap((e) => (e.type === 'host_result' && (e.result.status === 'failed' || e.result.status === 'unreachable') ? [`${e.result.host} ${e.task.name}: ${e.result.msg}`] : []));

  const ev1: RunEvent[] = [];
  const first = await runPlaybook({ playbook, inventory: [inventory], retryFile: false, onEvent: (e) => ev1.push(e) });
  t.is(first.exitCode, 0, failures(ev1).join('\n'));
  for (const s of Object.values(first.stats)) t.true(s.changed >= 20, JSON.stringify(first.stats));

  const ev2: RunEvent[] = [];
  const second = await runPlaybook({ playbook, inventory: [inventory], retryFile: false, onEvent: (e) => ev2.push(e) });
  t.is(second.exitCode, 0, failures(ev2).join('\n'));
  const changed = ev2.flatMap((e) => (e.type === 'host_result' && e.result.status === 'changed' ? [`${e.result.host}: ${e.task.name}`] : []));
  t.deepEqual(changed, [], 'the re-run changed something');
  t.log(`converge execs per host: ${JSON.stringify(first.execs)}; no-op re-run execs per host: ${JSON.stringify(second.execs)}`);
  for (const [host, n] of Object.entries(second.execs)) {
    // 1 run lock (with the facts) + 1 batched read of all 24 tasks' state.
    t.is(n, 2, `${host}: ${n} execs for a no-op run`);
  }
});
