// Every molecule/ scenario on real lab hosts, plus the two failures the scenario runner must catch.
import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadScenario } from '../../src/scenario/load-scenario.js';
import { runScenario, scenarioLabName, type StepOutcome } from '../../src/scenario/run-scenario.js';
import { labDown } from '../../src/lab/index.js';
import { testLabName } from '../helpers/lab-name.js';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
// This run's lab per scenario (test/helpers/lab-name.ts): another run of this file beside it has its own.
const labOf = (scenario: string): string => testLabName(scenarioLabName(scenario));
const used: string[] = [];
const ran = (lab: string): string => (used.push(lab), lab);
const show = (o: StepOutcome[]) => o.map((x) => `${x.step}: ${x.ok ? 'ok' : 'FAILED'} ${x.seconds.toFixed(1)}s${x.detail ? `\n${x.detail}` : ''}`).join('\n');

test.serial('a non-idempotent task fails the idempotence step, naming the task', async (t) => {
  const sc = await loadScenario(path.join(root, 'test/scenario/fixtures/nonidempotent'));
  const lab = ran(labOf(sc.name));
  t.teardown(() => labDown(lab).then(() => undefined));
  const o = await runScenario(sc, { lab });
  t.log(show(o));
  const idem = o.find((x) => x.step === 'idempotence');
  t.false(idem?.ok ?? true);
  t.regex(idem?.detail ?? '', /one: TASK \[always changes\]/);
  t.notRegex(idem?.detail ?? '', /stable task/);
  t.true(o.find((x) => x.step === 'destroy')?.ok);
});

test.serial('a task that changes the host under --check fails the check step', async (t) => {
  const sc = await loadScenario(path.join(root, 'test/scenario/fixtures/checkchange'));
  const lab = ran(labOf(sc.name));
  t.teardown(() => labDown(lab).then(() => undefined));
  const o = await runScenario(sc, { lab });
  t.log(show(o));
  t.true(o.find((x) => x.step === 'idempotence')?.ok);
  const check = o.find((x) => x.step === 'check');
  t.false(check?.ok ?? true);
  t.regex(check?.detail ?? '', /one: --check changed the host \(etc\)/);
});

test.serial('a scenario past its deadline starts no further step and still runs destroy', async (t) => {
  const sc = await loadScenario(path.join(root, 'test/scenario/fixtures/nonidempotent'));
  const lab = ran(labOf(sc.name));
  t.teardown(() => labDown(lab).then(() => undefined));
  const o = await runScenario(sc, { lab, signal: AbortSignal.abort(new Error('scenario deadline')) });
  t.deepEqual(o.map((x) => [x.step, x.ok]), [['create', false], ['destroy', true]]);
  t.regex(o[0]!.detail ?? '', /scenario deadline/);
});

const scenarios = readdirSync(path.join(root, 'molecule')).filter((d) => existsSync(path.join(root, 'molecule', d, 'scenario.yml'))).sort();
for (const name of scenarios) {
  test.serial(`scenario ${name} passes every step`, async (t) => {
    const sc = await loadScenario(path.join(root, 'molecule', name));
    // Its own deadline, above ava's 5-min inactivity timeout for VM hosts (qemu TCG boots took minutes
    // on a loaded 2-core machine and ava killed the whole file), below this test's timeout; destroy runs.
    const budget = (sc.hosts.some((h) => h.kind === 'vm') ? 25 : 12) * 60_000;
    t.timeout(budget + 3 * 60_000);
    const lab = ran(labOf(sc.name));
    t.teardown(() => labDown(lab).then(() => undefined));
    const o = await runScenario(sc, { lab, signal: AbortSignal.timeout(budget) });
    t.log(show(o));
    for (const step of sc.sequence) t.true(o.find((x) => x.step === step)?.ok, `step ${step} did not pass:\n${show(o)}`);
  });
}

test.after.always('nothing is left of the labs', (t) => {
  const ns = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  for (const n of used) t.false(ns.split('\n').some((l) => l.split(' ')[0] === `hw-${n}` || l.startsWith(`hw-${n}-`)), ns);
});
