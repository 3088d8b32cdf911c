// Recorded cases are tests by themselves (pyinfra's JSON operation tests): every
// src/modules/<module>/cases/*.json that carries `args` is recorded probe output + args in and the
// expected plan out, so adding a case needs no test code. The format: PlanCase in plan-case.ts
// and docs/adding-a-module.md.
// A recording without `args` is a fragment a unit test of its module reads by name.
import test from 'ava';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getModule } from '../../src/modules/all.js';
import { caseContext, probeOutput, readCaseContext, withoutKeys, type PlanCase } from './plan-case.js';
import { ansibleDifferences, runSession, type SessionCase } from './session-case.js';

// Read from the source tree (three levels above dist/test/modules), as the modules' unit tests do.
const modulesDir = fileURLToPath(new URL('../../../src/modules/', import.meta.url));
const testsDir = fileURLToPath(new URL('../', import.meta.url));

interface Found {
  folder: string;
  name: string;
  data: PlanCase;
}

function findCases(): Found[] {
  const found: Found[] = [];
  for (const folder of readdirSync(modulesDir).sort()) {
    const dir = `${modulesDir}${folder}/cases`;
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      found.push({ folder, name: file.replace(/\.json$/, ''), data: JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as PlanCase });
    }
  }
  return found;
}

const cases = findCases();

test('the recorded cases are found', (t) => {
  t.true(cases.filter((c) => c.data.args !== undefined).length >= 28, `${cases.length} case files under ${modulesDir}`);
});

// A controller case (add_host, group_by, set_stats: actions that read nothing): args in, the action's
// own result out (before the runner's effects on the run, which a playbook test covers).
const plain = cases.filter((x) => !('session' in x.data));
for (const c of plain.filter((x) => x.data.args !== undefined && x.data.result !== undefined && x.data.command === undefined)) {
  test(`${c.folder}/${c.name} (controller)`, async (t) => {
    const mod = getModule(c.data.module ?? c.folder);
    if (!mod?.run || mod.readsAhead) return t.fail(`${c.folder}/cases/${c.name}.json: no controller module (run, no reads) named ${c.data.module ?? c.folder}`);
    const parsed = mod.args.safeParse(c.data.args);
    if (!parsed.success) return t.fail(parsed.error.message);
    t.deepEqual(await mod.run(parsed.data, caseContext(c.data)), c.data.result);
  });
}

for (const c of plain.filter((x) => x.data.args !== undefined && x.data.result !== undefined && x.data.command !== undefined)) {
  test(`${c.folder}/${c.name} (read)`, async (t) => {
    const mod = getModule(c.data.module ?? c.folder);
    if (!mod?.run || !mod.readsAhead) return t.fail(`${c.folder}/cases/${c.name}.json: no read module (run + readsAhead) named ${c.data.module ?? c.folder}`);
    const args = mod.args.parse(c.data.args);
    const probed: string[] = [];
    const result = await mod.run(args, readCaseContext(c.data, probed));
    t.deepEqual(probed, mod.readsAhead(args).map((r) => r.command), 'the one probe it reads is the one the runner reads ahead');
    const ignore = c.data.ignore ?? [];
    t.deepEqual(withoutKeys(result, ignore), withoutKeys(c.data.result!, ignore));
  });
}

// A recorded session (session-case.ts): every call the module made on the lab host, replayed; its
// result is hostwire's recorded one, and equals ansible-core's (`recorded`) but for the named differences.
for (const c of cases.filter((x) => 'session' in x.data) as (Found & { data: SessionCase })[]) {
  test.serial(`${c.folder}/${c.name} (session)`, async (t) => {
    const mod = getModule(c.data.module ?? c.folder);
    if (!mod?.run || !c.data.args || !c.data.result || !c.data.recorded) return t.fail(`${c.folder}/cases/${c.name}.json: a session case needs a module with run, args, result and recorded`);
    const args = mod.args.parse(c.data.args);
    const { result, left } = await runSession((ctx) => mod.run!(args, ctx), c.data);
    t.deepEqual(left, [], 'every recorded call was made');
    const ignore = c.data.ignore ?? [];
    t.deepEqual(withoutKeys(result, ignore), withoutKeys(c.data.result, ignore));
    const { hostwire, ansible } = ansibleDifferences(c.data);
    t.deepEqual(hostwire, ansible, 'as ansible-core returned on the same host');
  });
}

for (const c of plain.filter((x) => x.data.args !== undefined && x.data.result === undefined)) {
  test(`${c.folder}/${c.name}`, (t) => {
    const mod = getModule(c.data.module ?? c.folder);
    if (!mod?.probe || !mod.plan) return t.fail(`${c.folder}/cases/${c.name}.json: no probe/plan module named ${c.data.module ?? c.folder}`);
    t.true(c.data.plan !== undefined || c.data.error !== undefined, `${c.folder}/cases/${c.name}.json: expected a "plan" or an "error"`);
    const args = mod.args.parse(c.data.args);
    const ctx = caseContext(c.data);
    const run = () => mod.plan!(mod.probe!(args, ctx).parse(probeOutput(c.data)), args, ctx);
    if (c.data.error !== undefined) {
      const e = t.throws(run);
      t.regex(e?.message ?? '', new RegExp(c.data.error));
      return;
    }
    // before/after (the --diff text: a file's old and new content) are compared where the case gives them.
    const changes = run().map((ch, i) => {
      const want = c.data.plan?.[i] ?? {};
      return {
        summary: ch.summary, run: ch.run, ...(ch.write ? { write: ch.write.path } : {}),
        ...('before' in want ? { before: ch.before } : {}), ...('after' in want ? { after: ch.after } : {}),
      };
    });
    t.deepEqual(changes, c.data.plan);
  });
}

/** Every file a test under dist/test names (the fragments are read by name: loadCase('iptables', 'list-chain')). */
function testSources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? testSources(`${dir}${e.name}/`) : e.name.endsWith('.js') ? readFileSync(`${dir}${e.name}`, 'utf8') : ''))
    .join('\n');
}

test('a recording without args is a fragment some unit test reads (none lies unread)', (t) => {
  const sources = testSources(testsDir);
  const unread = cases.filter((c) => c.data.args === undefined && !new RegExp(`['"\`/]${c.name}['"\`.]`).test(sources));
  t.deepEqual(unread.map((c) => `${c.folder}/cases/${c.name}.json`), []);
});
